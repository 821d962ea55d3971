import { LRUCache } from 'lru-cache';

/**
 * Whether a postcode (or a postcode prefix) exists, remembered until the next import: every
 * geocode and keystroke asks it for each number in the query, and the answers only change
 * with an import. The store clears it when the index version changes (in any process).
 */
export class PostcodeCache {
  private readonly known = new LRUCache<string, boolean>({ max: 50_000 });

  async exists(key: string, prefix: boolean, country: string | undefined, look: () => Promise<boolean> | boolean): Promise<boolean> {
    let hit = this.get(key, prefix, country);
    if (hit === undefined) {
      hit = await look();
      this.set(key, prefix, country, hit);
    }
    return hit;
  }

  /** The remembered answer, if any (a store that looks up many at once asks the database only for the rest). */
  get(key: string, prefix: boolean, country: string | undefined): boolean | undefined {
    return this.known.get(PostcodeCache.id(key, prefix, country));
  }

  set(key: string, prefix: boolean, country: string | undefined, exists: boolean): void {
    this.known.set(PostcodeCache.id(key, prefix, country), exists);
  }

  private static id(key: string, prefix: boolean, country: string | undefined): string {
    return `${prefix ? 'p' : 'e'}|${country ?? ''}|${key}`;
  }

  clear(): void {
    this.known.clear();
  }
}
