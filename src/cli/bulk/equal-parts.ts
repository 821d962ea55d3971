/** Rows cut into at most `count` consecutive parts of equal size (the last one shorter), none empty. */
export function equalParts<T>(rows: T[], count: number): T[][] {
  const parts = Math.min(count, rows.length);
  if (parts === 0) return [];
  const size = Math.ceil(rows.length / parts);
  return Array.from({ length: parts }, (_, i) => rows.slice(i * size, (i + 1) * size)).filter((part) => part.length > 0);
}
