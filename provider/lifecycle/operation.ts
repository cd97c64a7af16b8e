import type { ResourceHandler } from "../handler";
import { providerClock } from "../runtime";
import { compact } from "./compact";
import type { AnyKind } from "../kinds/declaration";
import { checkKind, type KindRules } from "./kind-check";
import { declaredDiff } from "./diff";

/**
 * A resource whose create performs an action once (docs/README.md). A change replaces, since each
 * run is a new event with outputs of its own; delete and refresh touch nothing.
 */
export interface Operation<I, O> {
  /** Its `replaceOn` inputs say what the action does; the others only describe it and never cause a run. */
  kind: AnyKind;
  /** Rules beyond the declared fields, and the fields they check in full (see checkKind). */
  rules?: KindRules;
  ruledFields?: readonly string[];
  /** Performs the action once. */
  run(inputs: I): Promise<{ id: string; outs: O }>;
}

export function operationHandler<I, O extends object>(operation: Operation<I, O>): ResourceHandler {
  return {
    check: checkKind(operation.kind, operation.rules, { ruledFields: operation.ruledFields }),

    async diff(_id, olds, news) {
      return declaredDiff(operation.kind, olds, news);
    },

    async create(inputs: I) {
      const { id, outs } = await operation.run(inputs);
      return { id, outs: compact(outs) };
    },

    async read(id, props) {
      return { id, props };
    },

    // Only inputs that describe the action changed (the others replace): nothing runs again.
    async update(_id, olds) {
      return { outs: olds };
    },

    async delete() {
      // A past action cannot be undone.
    },
  };
}

/** When an action ran, for its record (ISO 8601): on the provider's clock, which tests replace. */
export function ranAt(): string {
  return new Date(providerClock().now()).toISOString();
}
