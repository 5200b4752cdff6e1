/**
 * The passthrough template engine: compiles the four target URL sections and header values once, and
 * renders them per request into a safe target URL and header values. See README.md in this folder.
 */
export type {
  EnvValue,
  EnvVariableShape,
  HeaderPlace,
  RenderError,
  RenderErrorKind,
  RenderScope,
  SectionName,
  TemplateCompileContext,
  TemplateError,
  TemplatePlace,
} from './types.js';
export type { CompiledTarget, TargetCompileResult, TargetRenderResult, TargetSections } from './target.js';
export { compileTarget } from './target.js';
export type { CompiledHeaderValue, HeaderCompileResult, HeaderRenderResult } from './header-value.js';
export { compileHeaderValue } from './header-value.js';
export type { TemplateCompileCache } from './compile-cache.js';
export { createTemplateCompileCache } from './compile-cache.js';
export type { CompletionItem, CompletionKind } from './supported.js';
export { describeSupported, listSupported } from './supported.js';
export { handlebarsCompilationCount } from './handlebars-renderer.js';
export {
  MAX_EXPRESSION_DEPTH,
  MAX_HEADER_VALUE_LENGTH,
  MAX_TEMPLATE_LENGTH,
  MAX_URL_LENGTH,
  MAX_VALUE_LENGTH,
  SECRET_MASK,
} from './limits.js';
