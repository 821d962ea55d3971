import { describe, expect, it } from 'vitest';
import { createLocalProvider } from '../../src/providers/local/adapter.js';
import { STORAGE_BACKENDS } from '../support/backends.js';
import { addressRows, comparable } from './support/index-rows.js';
import { writeCompletenessFixture } from './support/osm-complete-fixture.js';
import { changeFiles, updateSandboxes } from './support/update-sandboxes.js';

const fixture = changeFiles(writeCompletenessFixture);

/** Issue 30 item 4: addresses OSM holds besides address nodes and ways, imported and kept current. */
describe.each(STORAGE_BACKENDS)('OSM completeness (%s)', (backend) => {
  const s = updateSandboxes(backend);

  const house = async (query: string) => {
    const [best] = await s.box.index.geocode({ query, country: 'CZ' });
    return best?.precision === 'address' ? best : undefined;
  };
  const importBefore = async () => {
    await s.box.index.importFile(fixture.files.before, { format: 'osm' });
    await s.box.index.recordOsmState(fixture.files.before);
  };

  it('finds a building with a courtyard (a multipolygon relation) at the centre of its outer way, in its municipality', async () => {
    await importBefore();
    const hit = await house('Dvorní 5, Lhota');
    expect(hit?.components).toMatchObject({ street: 'Dvorní', houseNumber: '5', city: 'Lhota' });
    expect(hit?.location.lat).toBeCloseTo(49.151, 6);
    expect(hit?.location.lng).toBeCloseTo(16.101, 6);
  });

  it('finds every number of an interpolation range, marked interpolated and placed along the way; none outside it', async () => {
    await importBefore();
    const six = await house('Polní 6, Lhota');
    expect(six).toMatchObject({ components: { houseNumber: '6', city: 'Lhota' }, interpolated: true });
    expect(six?.location.lng).toBeCloseTo(16.06, 6);
    // The local provider says so to the engine (granularity.geocode `interpolated`).
    const [candidate] = await createLocalProvider(s.box.index).geocode({ query: 'Polní 6, Lhota', components: { street: 'Polní', houseNumber: '6', city: 'Lhota' }, country: 'CZ' }, new AbortController().signal);
    expect(candidate).toMatchObject({ precision: 'address', interpolated: true });
    expect((await house('Polní 4, Lhota'))?.location.lng).toBeCloseTo(16.055, 6);
    // The numbered end nodes are mapped addresses, not interpolated.
    const end = await house('Polní 10, Lhota');
    expect(end).toBeDefined();
    expect(end).not.toHaveProperty('interpolated');
    // Outside the range, or of the other parity: not a number the data has.
    expect(await house('Polní 12, Lhota')).toBeUndefined();
    expect(await house('Polní 5, Lhota')).toBeUndefined();
    // The way's street, where its numbered nodes name none.
    expect((await house('Luční 4, Lhota'))?.location.lng).toBeCloseTo(16.08, 6);
  });

  it('finds an address by its place where it has no street, and Czech numbers in every form', async () => {
    await importBefore();
    expect((await house('Zahrádky 7, Lhota'))?.components).toMatchObject({ street: 'Zahrádky', houseNumber: '7' });
    expect((await house('Hlavní 123/4, Lhota'))?.components).toMatchObject({ street: 'Hlavní', houseNumber: '123/4' });
    expect((await house('Hlavní 4, Lhota'))?.components).toMatchObject({ street: 'Hlavní', houseNumber: '4' });
    // The conscription number with the place (here the municipality: the address names no addr:place).
    expect((await house('Lhota 123'))?.location).toEqual((await house('Hlavní 4, Lhota'))?.location);
    // A conscription number alone, in a hamlet.
    expect((await house('Zahrádky 45'))?.components.houseNumber).toBe('45');
    // An entrance with an address of its own, at its own point.
    const entrance = await house('Hlavní 20, Ves');
    expect(entrance?.location.lat).toBeCloseTo(49.14, 7);
    expect(entrance?.location.lng).toBeCloseTo(16.25, 7);
    // Staircases without a number: the building's address, with their flats.
    const flats = await house('Hlavní 30, Ves');
    expect(flats?.units).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
  });

  it('applies a change file to all of them as a fresh import of the new extract writes them', async () => {
    await importBefore();
    const summary = await s.box.index.applyOsmChange(fixture.files.change, {});
    await s.fresh.index.importFile(fixture.files.after, { format: 'osm' });
    expect(comparable(await addressRows(s.box.sandbox))).toEqual(comparable(await addressRows(s.fresh.sandbox)));
    expect(summary.relationsIgnored).toBe(0);
    // The courtyard building renumbered and its corner moved; a new one.
    expect(await house('Dvorní 5, Lhota')).toBeUndefined();
    expect((await house('Dvorní 7, Lhota'))?.location.lat).toBeCloseTo((49.15 * 2 + 49.152 + 49.154) / 4, 6);
    expect((await house('Dvorní 9, Lhota'))?.components.houseNumber).toBe('9');
    // The range grew with its end node's number, the way itself untouched.
    expect(await house('Polní 12, Lhota')).toMatchObject({ interpolated: true });
    // A way retagged from all to odd numbers keeps 3 and loses 2 and 4.
    expect(await house('Luční 3, Lhota')).toMatchObject({ interpolated: true });
    expect(await house('Luční 4, Lhota')).toBeUndefined();
    expect(await house('Zahrádky 7, Lhota')).toBeUndefined();
    expect((await house('Zahrádky 8, Lhota'))?.components.houseNumber).toBe('8');
    expect(await house('Hlavní 4, Lhota')).toBeUndefined();
    expect((await house('Hlavní 6, Lhota'))?.components.houseNumber).toBe('6');
    expect(await house('Zahrádky 45')).toBeUndefined();
    expect((await house('Hlavní 20, Ves'))?.location.lng).toBeCloseTo(16.3, 7);
    // The staircases follow their renumbered building; one lists a flat more.
    expect(await house('Hlavní 30, Ves')).toBeUndefined();
    expect((await house('Hlavní 32, Ves'))?.units).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    // A repeat of the same file changes nothing.
    expect(await s.box.index.applyOsmChange(fixture.files.change, {})).toMatchObject({ imported: 0, updated: 0, removed: 0 });
  });
});
