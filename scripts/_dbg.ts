import { PlaceSet } from '../src/address/name-spans.js';
import { listedCityNames } from '../src/address/city-aliases.js';
const p = new PlaceSet(listedCityNames(), undefined);
for (const n of ['Linden', 'den Linden', 'Unter den Linden', 'Berlin']) console.log(n, p.has(n));
