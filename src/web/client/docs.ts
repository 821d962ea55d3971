/** Redoc's global from its standalone bundle, loaded by the page before this script. */
declare const Redoc: {
  init(specOrUrl: string, options: Record<string, unknown>, element: HTMLElement | null, callback?: (error?: unknown) => void): void;
};

const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;

// Redoc themes by options, not CSS: pass dark colours when the reader prefers them.
const darkTheme = {
  colors: {
    primary: { main: '#8ab4ff' },
    text: { primary: '#e8eaed', secondary: '#bdc1c6' },
    border: { dark: '#5f6368', light: '#3c4043' },
    // Method badges keep white text: darker fills than the light theme's keep it readable.
    http: { get: '#1e6b34', post: '#1a4fa8', options: '#6a2c91' },
  },
  schema: { nestedBackground: '#202124', typeNameColor: '#bdc1c6', typeTitleColor: '#e8eaed', linesColor: '#5f6368' },
  sidebar: { backgroundColor: '#181a1d', textColor: '#e8eaed' },
  rightPanel: { backgroundColor: '#0f1114', textColor: '#e8eaed' },
  codeBlock: { backgroundColor: '#202124' },
  typography: { code: { color: '#f28b82', backgroundColor: '#202124' }, links: { color: '#8ab4ff' } },
};

const lightTheme = {
  colors: { primary: { main: '#0b57d0' } },
  typography: { links: { color: '#0b57d0' } },
};

const container = document.getElementById('redoc');
Redoc.init(
  container?.dataset.spec ?? '/openapi.json',
  {
    theme: dark ? darkTheme : lightTheme,
    expandResponses: '200',
    requiredPropsFirst: true,
    sortPropsAlphabetically: false,
    hideHostname: false,
    pathInMiddlePanel: true,
    nativeScrollbars: true,
  },
  container,
  () => container?.setAttribute('data-ready', 'true'),
);

// A module, so these names stay out of the type checker's global scope.
export {};
