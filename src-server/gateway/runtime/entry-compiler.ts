import type { CompileEntryResult } from '../../core/passthrough/compile-entry.js';
import { compileForwardingEntry } from '../../core/passthrough/forwarding/index.js';
import type { TemplateCompileContext } from '../../core/template/index.js';
import type { PassthroughEntry } from '../../core/model/config-model.js';

/**
 * Compiles entries for route tables, reusing the result of the previous build when the entry, the variable
 * shapes and the operation's parameters are the same (values do not matter: they are looked up per request).
 * Each build keeps only what it used, so the cache never outgrows the configuration.
 */
export class EntryCompiler {
  #previous = new Map<string, CompileEntryResult>();
  #current = new Map<string, CompileEntryResult>();
  compilations = 0;

  beginBuild(): void {
    this.#current = new Map();
  }

  endBuild(): void {
    this.#previous = this.#current;
  }

  compile(entry: PassthroughEntry, context: TemplateCompileContext, shapesKey: string): CompileEntryResult {
    const key = `${shapesKey}\u0000${JSON.stringify(entry)}\u0000${context.scope}\u0000${context.pathParameters.join('/')}`;
    let result = this.#current.get(key) ?? this.#previous.get(key);
    if (!result) {
      result = compileForwardingEntry(entry, context);
      this.compilations++;
    }
    this.#current.set(key, result);
    return result;
  }
}
