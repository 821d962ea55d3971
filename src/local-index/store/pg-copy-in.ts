import pg from 'pg';

/**
 * COPY's text format, one field: tabs and line breaks end fields and rows, so any left (none is
 * expected: whitespace was collapsed when the row was read) become a space; a backslash starts an
 * escape, so it is doubled. `\N` is NULL: an empty optional field is written as NULL, as the index
 * has always stored it (no field the index stores is legitimately empty).
 */
const SPECIAL = /[\t\n\r\\]/;
export const copyText = (v: string): string => (SPECIAL.test(v) ? v.replace(/[\t\n\r]/g, ' ').replace(/\\/g, '\\\\') : v);
export const copyOpt = (v: string | null | undefined): string => (v === null || v === undefined || v === '' ? '\\N' : copyText(v));

/** The protocol messages this sends: pg's connection has them, its type declarations do not. */
interface CopyConnection {
  query(text: string): void;
  endCopyFrom(): void;
  stream: { write(chunk: Buffer | string, encoding?: BufferEncoding): boolean };
}

/** A CopyData message's header: its type and length (the data's bytes and the length's own four). */
function copyDataHeader(bytes: number): Buffer {
  const header = Buffer.alloc(5);
  header[0] = 0x64; // 'd'
  header.writeUInt32BE(bytes + 4, 1);
  return header;
}

interface RowDescription {
  fields: { name: string; dataTypeID: number }[];
}

/**
 * `COPY <target> FROM STDIN; <then>` as one simple query, its data sent right behind it: one
 * round trip for the load and what follows it in the same transaction (a COPY through
 * pg-copy-streams waits for the server's go-ahead, then for its confirmation, before the next
 * statement can leave: three round trips, each waiting its turn on a busy event loop). The
 * server reads the data once the COPY starts; if anything fails first, it ignores the data
 * messages (the protocol lets a client send them ahead). Rows are those of the statements in
 * `then`, parsed as pg parses text results.
 */
class CopyThen<R> implements pg.Submittable {
  private fields: { name: string; parse: (value: string) => unknown }[] = [];
  private readonly rows: R[] = [];
  readonly done: Promise<R[]>;
  private settle!: { resolve: (rows: R[]) => void; reject: (err: Error) => void };

  constructor(
    private readonly text: string,
    /** Text rows (without the last line break), or COPY's binary format whole. */
    private readonly data: string | Buffer,
  ) {
    this.done = new Promise<R[]>((resolve, reject) => (this.settle = { resolve, reject }));
  }

  submit(connection: pg.Connection): void {
    const c = connection as unknown as CopyConnection;
    c.query(this.text);
    if (typeof this.data !== 'string') {
      c.stream.write(copyDataHeader(this.data.length));
      c.stream.write(this.data);
    } else if (this.data !== '') {
      // The text goes to the socket as it is (pg's own copyData would copy it into a buffer twice: a megabyte a batch).
      c.stream.write(copyDataHeader(Buffer.byteLength(this.data) + 1));
      c.stream.write(this.data, 'utf8');
      c.stream.write('\n'); // the last row's end (appended to the text, it would be copied once more)
    }
    c.endCopyFrom();
  }

  handleCopyInResponse(): void {
    // The data went with the query.
  }

  handleRowDescription(msg: RowDescription): void {
    this.fields = msg.fields.map((f) => ({ name: f.name, parse: pg.types.getTypeParser(f.dataTypeID, 'text') }));
  }

  handleDataRow(msg: { fields: (string | null)[] }): void {
    this.rows.push(Object.fromEntries(msg.fields.map((v, k) => [this.fields[k]!.name, v === null ? null : this.fields[k]!.parse(v)])) as R);
  }

  handleCommandComplete(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}

  /** pg forgets the query after an error (no ReadyForQuery reaches it): the error settles it. */
  handleError(err: Error): void {
    this.settle.reject(err);
  }

  handleReadyForQuery(): void {
    this.settle.resolve(this.rows);
  }
}

/**
 * Loads lines (fields already written by copyText / copyOpt, tab-separated) into `table` through
 * COPY FROM STDIN, the server's fast path for rows, then runs `then` (statements without
 * parameters) and returns their rows; one round trip. A refusal (a bad value, a failing
 * statement) rejects, and nothing of the query stays done (the transaction is failed).
 */
export async function copyThen<R>(client: pg.PoolClient, table: string, columns: string[], lines: string[], then: string): Promise<R[]> {
  const data = lines.join('\n');
  const query = new CopyThen<R>(`COPY ${table} (${columns.join(', ')}) FROM STDIN;\n${then}`, data);
  client.query(query);
  return query.done;
}

/** COPY's binary format: its signature, flags and header extension length, and the end marker. */
const BINARY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const BINARY_END = 0xffff;

/**
 * Rows of (bigint, double precision, double precision), packed `id, a, b` in `rows`, in COPY's
 * binary format: no number is turned into text and parsed back (for millions of node coordinates,
 * most of the work of a text COPY on both sides). Ids must be integers within ±2^53.
 */
export function binaryIdPairs(rows: Float64Array): Buffer {
  const n = rows.length / 3;
  const out = Buffer.allocUnsafe(BINARY_HEADER.length + n * 38 + 2);
  BINARY_HEADER.copy(out, 0);
  let at = BINARY_HEADER.length;
  for (let i = 0; i < n; i++) {
    const id = rows[i * 3]!;
    out.writeInt16BE(3, at);
    out.writeInt32BE(8, at + 2);
    // int64 as two 32-bit halves (exact for |id| < 2^53; a negative id's high half is negative).
    out.writeInt32BE(Math.floor(id / 2 ** 32), at + 6);
    out.writeUInt32BE(id >>> 0, at + 10);
    out.writeInt32BE(8, at + 14);
    out.writeDoubleBE(rows[i * 3 + 1]!, at + 18);
    out.writeInt32BE(8, at + 26);
    out.writeDoubleBE(rows[i * 3 + 2]!, at + 30);
    at += 38;
  }
  out.writeUInt16BE(BINARY_END, at);
  return out;
}

/** Loads `data` (COPY's binary format, e.g. binaryIdPairs) into `table`; one round trip. */
export async function copyBinary(client: pg.PoolClient, table: string, columns: string[], data: Buffer): Promise<void> {
  const query = new CopyThen<never>(`COPY ${table} (${columns.join(', ')}) FROM STDIN (FORMAT binary)`, data);
  client.query(query);
  await query.done;
}
