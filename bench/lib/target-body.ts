/** What the benchmark's targets answer to every request. */
export const TARGET_BODY = JSON.stringify({ id: 42, name: 'widget', price: 9.99, tags: ['a', 'b', 'c'] });
