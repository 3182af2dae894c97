/**
 * LangChain.js: `StructuredTool.prototype.call` in the tools module of each
 * build of `@langchain/core` (`call-patch.ts`), `BaseChatModel`'s
 * `generate` and `_streamIterator` for the model that produced each tool
 * call (`model-patch.ts`), and the modules `ToolMessage` and `toJsonSchema`
 * come from (`core-modules.ts`). The explicit entry point
 * is `inst.instrumentLangChainTool(tool)`.
 */
import type { Host } from '../../kit/host.js';
import type { ModuleSpec } from '../../kit/module-spec.js';
import { isObject } from '../../kit/values.js';
import { patchToolCall, structuredToolPrototype } from './call-patch.js';
import { captureCoreModule } from './core-modules.js';
import { chatModelPrototype, patchGenerate, patchStreamIterator } from './model-patch.js';

export const LANGCHAIN_CORE_PACKAGE = '@langchain/core';

/** The module `init()` lists for LangChain.js, unless `frameworks.enabled` is false. */
export function langChainModules(host: Host): ModuleSpec[] {
  return [
    {
      integration: 'langchain',
      packageName: LANGCHAIN_CORE_PACKAGE,
      range: { lowest: '1.0.0', below: '2.0.0' },
      files: [
        'dist/tools/index.cjs',
        'dist/tools/index.js',
        'dist/messages/tool.cjs',
        'dist/messages/tool.js',
        'dist/utils/json_schema.cjs',
        'dist/utils/json_schema.js',
        'dist/language_models/chat_models.cjs',
        'dist/language_models/chat_models.js',
      ],
      patch(moduleExports) {
        captureCoreModule(moduleExports);
        const proto = structuredToolPrototype(moduleExports);
        if (proto !== undefined) host.wrapping.wrap(proto, 'call', patchToolCall(host));
        const model = chatModelPrototype(moduleExports);
        if (model !== undefined) {
          host.wrapping.wrap(model, 'generate', patchGenerate(host));
          host.wrapping.wrap(model, '_streamIterator', patchStreamIterator(host));
        }
        return moduleExports;
      },
      unpatch(moduleExports) {
        const proto = structuredToolPrototype(moduleExports);
        if (proto !== undefined) host.wrapping.unwrap(proto, 'call');
        const model = chatModelPrototype(moduleExports);
        if (model !== undefined) {
          host.wrapping.unwrap(model, 'generate');
          host.wrapping.unwrap(model, '_streamIterator');
        }
      },
      explicit: 'inst.instrumentLangChainTool(tool)',
    },
  ];
}

/**
 * The explicit entry point: check the calls of one tool (any
 * `StructuredTool`, for example one given to LangGraph's `ToolNode`) that the
 * patch cannot reach. Returns the tool itself. A tool patched both ways
 * counts each call once.
 */
export function instrumentLangChainTool<T extends object>(host: Host, tool: T): T {
  if (!isObject(tool) || typeof tool.call !== 'function' || typeof tool.name !== 'string') {
    host.diag.warn(
      'argcheck: instrumentLangChainTool was given an object without name and call; ignored',
    );
    return tool;
  }
  host.seen('langchain');
  host.wrapping.wrapInstance(tool, 'call', patchToolCall(host));
  return tool;
}
