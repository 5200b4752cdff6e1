/** How the sample URL of the preview is read: the same rule as the server's (core/passthrough/forwarding). */
export interface SampleUrlReading {
  /** The request line's target as the gateway would receive it. */
  shown: string;
  /** Said when the reading is not the obvious one: a path typed with the base path is taken as the full path. */
  note?: string;
}

const ABSOLUTE = /^https?:\/\//i;

function pathOf(url: string): string {
  const withSlash = url.startsWith('/') ? url : `/${url}`;
  return withSlash.split(/[?#]/, 1)[0]!;
}

/** A sample URL typed with the base path (`/pets-api/v1/pets`) is the full path, not one under the base path. */
export function readSampleUrl(url: string, basePath: string): SampleUrlReading {
  if (ABSOLUTE.test(url)) return { shown: url };
  const path = pathOf(url);
  const relative = url.startsWith('/') ? url : `/${url}`;
  if (basePath === '/') return { shown: relative };
  if (path === basePath || path.startsWith(`${basePath}/`)) {
    return {
      shown: relative,
      note: `The sample path starts with the base path ${basePath}, so it is read as the full path.`,
    };
  }
  return { shown: `${basePath}${relative}` };
}
