import { parseAddress } from '../src/address/parse.js';
const [text, country, street, place, postcode] = process.argv.slice(2);
console.log(JSON.stringify(parseAddress(text!, { country, hints: { streets: [street!], places: [place!], postcodes: [postcode!] } })));
