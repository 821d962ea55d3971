/** One request of a load run, as autocannon sends it. */
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the load process is asked to do (written to a file, passed by path). */
export interface LoadSpec {
  url: string;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Taken in turn; a run never needs more than the list holds when requests must not repeat. */
  requests: LoadRequest[];
  /** Where in `requests` to start (uncached paths continue after their warm-up). */
  offset?: number;
}

/** What one measured run gives back; latencies in ms. */
export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** Non-2xx answers, socket errors and timeouts. */
  failed: number;
  statusCodes: Record<string, number>;
  /** Share of 200 answers that said `"cached":true`. */
  cachedShare: number;
  /** How many entries of `requests` the run consumed. */
  used: number;
  /** Responses of the warm-up and the measured run together (what the server's CPU time covers). */
  total: number;
}
