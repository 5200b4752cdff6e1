/**
 * Browser-side half of bench/ui.ts, installed into every page with `context.addInitScript(installUiProbes)`.
 * Everything is timed inside the page with performance.now(): the start is the `timeStamp` of the last input
 * event (keydown, input or click) after a probe was armed, the end is the MutationObserver callback that sees
 * the expected DOM, and "paint" is the first task after the next animation frame (the frame is on screen).
 *
 * These functions are serialized into the page, so they must not use anything from their module scope.
 */

export interface UiSample {
  /** timeStamp of the triggering input event. */
  start: number;
  /** The DOM showed the result. */
  dom: number;
  /** The first task after the frame that followed `dom`. */
  paint: number;
  /** The trigger, e.g. `click` or `keydown:ArrowDown`. */
  trigger: string;
  /** The last API request of the change (resource timing): sent, and its response read. */
  request?: { start: number; end: number };
}

export interface LoadSample {
  /** The heading of the first screen and the navigation are in the DOM (ms since navigation start). */
  dom: number;
  /** The first task after that: the main thread takes input. */
  interactive: number;
}

export type ProbeTarget = { kind: 'audit-grid' } | { kind: 'preview'; marker: string };

export interface UiProbes {
  /** Watches for the next change of the target after an input event; `result()` resolves with its timing. */
  arm: (target: ProbeTarget, timeoutMs: number) => void;
  result: () => Promise<UiSample>;
  /** Resolves once the shell and the first screen are rendered and the main thread is free. */
  load: Promise<LoadSample>;
}

export function installUiProbes(): void {
  const afterNextFrame = (): Promise<number> =>
    new Promise((resolve) =>
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now());
        channel.port2.postMessage(null);
      }),
    );
  const afterCurrentTask = (): Promise<number> =>
    new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(performance.now());
      channel.port2.postMessage(null);
    });

  let armed = false;
  let lastInput: { time: number; trigger: string } | undefined;
  for (const type of ['keydown', 'input', 'click']) {
    window.addEventListener(
      type,
      (event) => {
        if (!armed) return;
        const key = event instanceof KeyboardEvent ? `:${event.key}` : '';
        lastInput = { time: event.timeStamp, trigger: `${event.type}${key}` };
      },
      true,
    );
  }

  const auditGrid = () => {
    const grid = document.querySelector('[role="grid"][aria-label="Audit log entries"]');
    const root = grid?.closest('.MuiDataGrid-root');
    const firstRow = grid?.querySelector('.MuiDataGrid-row[data-id]');
    return {
      signature: `${grid?.getAttribute('aria-rowcount') ?? '-'}|${firstRow?.getAttribute('data-id') ?? '-'}`,
      busy: root?.querySelector('[role="progressbar"]') != null,
    };
  };

  /** 'busy' while loading, 'done' once the expected result is shown, otherwise 'idle'. */
  const lastRequestSince = (since: number, target: ProbeTarget): UiSample['request'] => {
    const path = target.kind === 'audit-grid' ? '/api/v1/audit-log?' : '/passthrough/preview';
    const entries = performance
      .getEntriesByType('resource')
      .filter(
        (entry) => entry.name.includes(path) && entry.startTime >= since,
      ) as PerformanceResourceTiming[];
    const last = entries.at(-1);
    return last ? { start: last.startTime, end: last.responseEnd } : undefined;
  };

  const checkerOf = (target: ProbeTarget): (() => 'busy' | 'done' | 'idle') => {
    if (target.kind === 'audit-grid') {
      const before = auditGrid().signature;
      return () => {
        const now = auditGrid();
        if (now.busy) return 'busy';
        return now.signature !== before ? 'done' : 'idle';
      };
    }
    let sawPending = false;
    return () => {
      const preview = document.querySelector('[data-testid="target-url-preview"]');
      const state = preview?.getAttribute('data-preview-state');
      if (state === 'pending') sawPending = true;
      if (!sawPending || (state !== 'ready' && state !== 'error'))
        return state === 'pending' ? 'busy' : 'idle';
      return state === 'error' || (preview?.textContent ?? '').includes(target.marker) ? 'done' : 'idle';
    };
  };

  let pending: Promise<UiSample> | undefined;
  const probes: UiProbes = {
    arm(target, timeoutMs) {
      const check = checkerOf(target);
      lastInput = undefined;
      armed = true;
      // The buffer keeps 250 entries by default; each sample looks at its own requests only.
      performance.clearResourceTimings();
      pending = new Promise<UiSample>((resolve, reject) => {
        const stop = () => {
          observer.disconnect();
          clearTimeout(timer);
          armed = false;
        };
        const observer = new MutationObserver(() => {
          if (check() !== 'done' || !lastInput) return;
          const dom = performance.now();
          const { time, trigger } = lastInput;
          stop();
          const request = lastRequestSince(time, target);
          void afterNextFrame().then((paint) => resolve({ start: time, dom, paint, trigger, request }));
        });
        const timer = setTimeout(() => {
          stop();
          reject(
            new Error(`no ${target.kind} change within ${timeoutMs} ms (last input: ${lastInput?.trigger})`),
          );
        }, timeoutMs);
        observer.observe(document.body, {
          subtree: true,
          childList: true,
          characterData: true,
          attributes: true,
          attributeFilter: ['aria-rowcount', 'data-id', 'data-preview-state'],
        });
      });
      // A rejection is reported by result(); keep it from being "unhandled" until then.
      pending.catch(() => undefined);
    },
    result() {
      if (!pending) return Promise.reject(new Error('arm() first'));
      return pending;
    },
    load: new Promise<LoadSample>((resolve) => {
      const ready = (): boolean => {
        const main = document.querySelector('main');
        const heading = main?.querySelector('h1');
        const links = document.querySelectorAll('nav[aria-label="Main"] a[href]');
        if (!main || !heading?.textContent.trim() || links.length === 0) return false;
        if (main.querySelector('[role="progressbar"]')) return false;
        return heading.getBoundingClientRect().height > 0;
      };
      const observer = new MutationObserver(() => {
        if (!ready()) return;
        const dom = performance.now();
        observer.disconnect();
        void afterCurrentTask().then((interactive) => resolve({ dom, interactive }));
      });
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    }),
  };
  (window as unknown as { __uiBench: UiProbes }).__uiBench = probes;
}
