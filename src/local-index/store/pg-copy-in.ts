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
    private readonly data: string,
  ) {
    this.done = new Promise<R[]>((resolve, reject) => (this.settle = { resolve, reject }));
  }

  submit(connection: pg.Connection): void {
    const c = connection as unknown as CopyConnection;
    c.query(this.text);
    if (this.data !== '') {
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
