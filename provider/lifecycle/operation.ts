import type { ResourceHandler } from "../handler";
import { providerClock } from "../runtime";
import { compact } from "./compact";
import type { AnyKind } from "../kinds/declaration";
import { checkKind, type KindRules } from "./kind-check";
import { declaredDiff } from "./diff";

/**
 * An operation is a resource whose create performs an action once (take a snapshot, restore a
 * database, move a file) and whose state records that it was done:
 * - a plain re-run changes nothing, so nothing runs again;
 * - a change of an input that says what the action does replaces it: the replacement performs the
 *   action anew. Replace rather than update because each run is a new event with outputs of its
 *   own (a new snapshot, a new restore time), and the preview then reads "replace", which says
 *   "runs again";
 * - delete only drops the record: a past action cannot be undone, and the replaced record going
 *   away must not touch the service;
 * - refresh keeps the record as it is: there is nothing on the service that stands for it.
 */
export interface Operation<I, O> {
  /**
   * The operation's declaration. Its `replaceOn` are the inputs that say what the action does: a
   * change of any of them runs it again. Others only describe it (a snapshot's date shown at
   * preview) and never cause a run.
   */
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

    // diff replaces on every change, so the engine has nothing to update in place: the record
    // stays as it was and nothing runs again.
    async update(_id, olds) {
      return { outs: olds };
    },

    async delete() {
      // State only: see above.
    },
  };
}

/** When an action ran, for its record (ISO 8601): on the provider's clock, which tests replace. */
export function ranAt(): string {
  return new Date(providerClock().now()).toISOString();
}
