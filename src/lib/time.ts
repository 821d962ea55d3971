/** UTC formatting shared by usage events and credits: `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD`, `YYYY-MM`. */
export function utcTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function utcMonth(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}
