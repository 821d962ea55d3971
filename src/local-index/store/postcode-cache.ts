import { LRUCache } from 'lru-cache';

/**
 * Whether a postcode (or a postcode prefix) exists, remembered until the next import: every
 * geocode and keystroke asks it for each number in the query, and the answers only change
 * with an import. The store clears it when the index version changes (in any process).
 */
export class PostcodeCache {
  private readonly known = new LRUCache<string, boolean>({ max: 50_000 });

  async exists(key: string, prefix: boolean, country: string | undefined, look: () => Promise<boolean> | boolean): Promise<boolean> {
    const id = `${prefix ? 'p' : 'e'}|${country ?? ''}|${key}`;
    let hit = this.known.get(id);
    if (hit === undefined) {
      hit = await look();
      this.known.set(id, hit);
    }
    return hit;
  }

  clear(): void {
    this.known.clear();
  }
}
