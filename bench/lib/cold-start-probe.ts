/**
 * Opens an existing audit store in a fresh process and prints one JSON line: open time, entry count and
 * the process RSS right after open (the cold-start figures of bench/audit-store.ts).
 */
import { openAuditStore } from '../../src-server/core/audit/store/index.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: cold-start-probe <store dir>');
const warnings: string[] = [];
const started = performance.now();
const store = await openAuditStore({ dir, onWarning: (message) => warnings.push(message) });
const openMs = performance.now() - started;
const rssAfterOpen = process.memoryUsage().rss;
const firstPageStarted = performance.now();
await store.query({ pageNumber: 1, pageSize: 30 });
const firstQueryMs = performance.now() - firstPageStarted;
console.log(JSON.stringify({ openMs, rssBytes: rssAfterOpen, count: store.count(), firstQueryMs, warnings }));
await store.close();
