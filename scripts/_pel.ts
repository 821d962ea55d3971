import { peliasParse } from '../src/address/pelias.js';
console.log(JSON.stringify(peliasParse(process.argv[2]!)));
