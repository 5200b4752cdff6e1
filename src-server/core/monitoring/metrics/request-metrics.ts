/** Histogram buckets in seconds (Prometheus convention), from 5 ms to 2 minutes. */
export const DURATION_BUCKETS_SECONDS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120,
];

const REQUESTS = 'gatehouse_gateway_requests_total';
const DURATION = 'gatehouse_gateway_request_duration_seconds';

interface RequestCount {
  method: string;
  statusClass: string;
  outcome: string;
  count: number;
}

/** Everything counted for one agent group and API. */
interface Series {
  /** `agent_group="…",api="…"`, formatted once. */
  labels: string;
  counts: RequestCount[];
  /** Observations per bucket (not cumulative); the last slot holds those above every bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * The gateway's two per-request metrics, the request counter and the duration histogram, counted by hand and
 * written in the Prometheus text format (0.0.4). Every gateway request updates them; prom-client's label
 * hashing and validation cost more per request than the rest of its monitoring record, here it is two map
 * lookups and a few increments.
 */
export class RequestMetrics {
  readonly #byGroup = new Map<string, Map<string, Series>>();

  /** `seconds` undefined: the request is counted, its duration is not observed. */
  observe(
    agentGroup: string,
    api: string,
    method: string,
    statusClass: string,
    outcome: string,
    seconds: number | undefined,
  ): void {
    const series = this.#seriesOf(agentGroup, api);
    const counts = series.counts;
    let entry: RequestCount | undefined;
    for (let index = 0; index < counts.length; index++) {
      const candidate = counts[index]!;
      if (
        candidate.method === method &&
        candidate.statusClass === statusClass &&
        candidate.outcome === outcome
      ) {
        entry = candidate;
        break;
      }
    }
    if (entry) entry.count++;
    else counts.push({ method, statusClass, outcome, count: 1 });
    if (seconds === undefined) return;
    let bucket = 0;
    while (bucket < DURATION_BUCKETS_SECONDS.length && seconds > DURATION_BUCKETS_SECONDS[bucket]!) bucket++;
    series.buckets[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  exposition(): string {
    const requests = [
      `# HELP ${REQUESTS} Requests that reached a gateway listener, passthrough or not.`,
      `# TYPE ${REQUESTS} counter`,
    ];
    const durations = [
      `# HELP ${DURATION} Time from a request reaching a gateway listener to the end of its response.`,
      `# TYPE ${DURATION} histogram`,
    ];
    for (const byApi of this.#byGroup.values()) {
      for (const series of byApi.values()) {
        for (const { method, statusClass, outcome, count } of series.counts) {
          const labels = `${series.labels},method="${escape(method)}",status_class="${escape(statusClass)}",outcome="${escape(outcome)}"`;
          requests.push(`${REQUESTS}{${labels}} ${count}`);
        }
        if (series.count === 0) continue;
        let cumulative = 0;
        DURATION_BUCKETS_SECONDS.forEach((bound, index) => {
          cumulative += series.buckets[index]!;
          durations.push(`${DURATION}_bucket{le="${bound}",${series.labels}} ${cumulative}`);
        });
        durations.push(`${DURATION}_bucket{le="+Inf",${series.labels}} ${series.count}`);
        durations.push(`${DURATION}_sum{${series.labels}} ${series.sum}`);
        durations.push(`${DURATION}_count{${series.labels}} ${series.count}`);
      }
    }
    return `${requests.join('\n')}\n\n${durations.join('\n')}\n`;
  }

  #seriesOf(agentGroup: string, api: string): Series {
    let byApi = this.#byGroup.get(agentGroup);
    if (!byApi) {
      byApi = new Map();
      this.#byGroup.set(agentGroup, byApi);
    }
    let series = byApi.get(api);
    if (!series) {
      series = {
        labels: `agent_group="${escape(agentGroup)}",api="${escape(api)}"`,
        counts: [],
        buckets: new Float64Array(DURATION_BUCKETS_SECONDS.length + 1),
        sum: 0,
        count: 0,
      };
      byApi.set(api, series);
    }
    return series;
  }
}

/** A label value as the text format writes it. */
function escape(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}
