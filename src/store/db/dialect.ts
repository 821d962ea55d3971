/** Which database holds the main store: the embedded default or the scale-out one. */
export type Dialect = 'sqlite' | 'postgres';
