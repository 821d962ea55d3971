/** Types for the parts of osm-pbf-parser (untyped CommonJS) that the OSM importer uses. */
declare module 'osm-pbf-parser' {
  import type { Transform } from 'node:stream';

  export interface OsmNode {
    type: 'node';
    id: number;
    lat: number;
    lon: number;
    tags: Record<string, string>;
  }
  export interface OsmWay {
    type: 'way';
    id: number;
    tags: Record<string, string>;
    refs: number[];
  }
  export interface OsmMember {
    type: 'node' | 'way' | 'relation' | '?';
    id: number;
    role: string;
  }
  export interface OsmRelation {
    type: 'relation';
    id: number;
    tags: Record<string, string>;
    members: OsmMember[];
  }
  export type OsmItem = OsmNode | OsmWay | OsmRelation;

  interface OsmPbfParser {
    (): Transform;
    /** Decodes one inflated block `{ type, data }` into arrays of items. */
    PrimitivesParser: new () => Transform;
  }
  const parseOSM: OsmPbfParser;
  export default parseOSM;
}

declare module 'osm-pbf-parser/lib/parsers.js' {
  interface Codec {
    encode(message: unknown): Buffer;
    decode(buffer: Buffer): Record<string, unknown>;
  }
  const parsers: {
    file: { Blob: Codec; BlobHeader: Codec };
    osm: { HeaderBlock: Codec; PrimitiveBlock: Codec };
  };
  export default parsers;
}
