import { compareComponent } from '../src/address/compare.js';
import { normalizeStreet } from '../src/address/normalize.js';
console.log(compareComponent('street', 'Bahnhofstrae', 'Bahnhofstraße', 'DE'), normalizeStreet('Bahnhofstrae', 'DE'), normalizeStreet('Bahnhofstraße', 'DE'));
