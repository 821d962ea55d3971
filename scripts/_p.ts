import { parseAddress } from '../src/address/parse.js';
const [text, country] = process.argv.slice(2);
console.log(JSON.stringify(parseAddress(text!, country ? { country } : {})));
