import type { ApiError } from "../client";
import type { ResourceHandler } from "../handler";
import { warn } from "../channels";
import type { AnyKind } from "../kinds/declaration";
import { compact } from "./compact";
import { declaredDiff } from "./diff";
import { confirmGone } from "./gone";
import { holdingsOf } from "./holdings";
import { checkKind, type KindRules } from "./kind-check";

/**
 * A kind's calls to the API; kindHandler wraps them in what its declaration says: the check, the
 * diff, adoption (`adoption`) and the "is it really gone?" check (`visibility`).
 */
export interface KindCalls<I, O, Adopted = never> {
  kind: AnyKind;
  /** Rules beyond the declared fields, and the fields they check in full (see checkKind). */
  rules?: KindRules;
  ruledFields?: readonly string[];
  /** What messages call the object, without its id: `database "cache"`. */
  what(props: O): string;
  /** The owner's account as state records it, for the gone-check. */
  owner?(props: O): string | undefined;
  /** Said at the diff of a replacement (what it costs). */
  onReplace?(id: string, olds: O, news: I): void;
  /** Added to every diff's answer, e.g. `deleteBeforeReplace: false`. */
  diffOptions?: { deleteBeforeReplace?: boolean };
  /** For an adoptable kind: refusals of an `adoptId` that need no request, made before any other. */
  refuseAdoption?(inputs: I, id: string): void;
  /** For an adoptable kind: reads the object `adoptId` names, and throws when the inputs do not describe it. */
  inspect?(inputs: I, id: string): Promise<Adopted>;
  /** Creates the object, or finishes taking over the one inspected. */
  create(inputs: I, adopted: Adopted | undefined): Promise<{ id: string; outs: O }>;
  /** Reads the object; a failure the gone-check accepts drops it from the state. */
  read(id: string, props: O): Promise<{ id: string; props: O }>;
  update(id: string, olds: O, news: I): Promise<O>;
  /** What update does, for its failure's gone-check ("change the links of"); unset: no check. */
  updateVerb?: string;
  delete(id: string, props: O): Promise<void>;
}

export function kindHandler<I extends { adoptId?: string }, O extends object, Adopted = never>(
  calls: KindCalls<I, O, Adopted>,
): ResourceHandler {
  const { kind } = calls;
  const holdings = kind.adoption ? holdingsOf(kind) : undefined;
  const visibility = kind.visibility;
  if (!visibility)
    throw new Error(`${kind.name} declares no visibility: kindHandler cannot tell when its objects are gone`);
  const gone = (err: unknown, operation: string, props: O) =>
    confirmGone(err, visibility, operation, calls.owner?.(props));

  return {
    check: checkKind(kind, calls.rules, { ruledFields: calls.ruledFields }),

    async diff(id, olds: O, news: I) {
      holdings?.noteHeld(id, calls.what(olds));
      const { changes, replaces } = declaredDiff(kind, olds, news);
      holdings?.refuseSelfAdoption(calls.what(olds), id, news.adoptId, replaces);
      if (replaces.length > 0) calls.onReplace?.(id, olds, news);
      else holdings?.noteKept(id);
      return { changes, replaces, ...calls.diffOptions };
    },

    async create(inputs: I) {
      const adoptId = inputs.adoptId;
      let adopted: Adopted | undefined;
      if (holdings && calls.inspect && adoptId) {
        const inspect = calls.inspect;
        calls.refuseAdoption?.(inputs, adoptId);
        adopted = await holdings.adopt(adoptId, () => inspect(inputs, adoptId));
      }
      const { id, outs } = await calls.create(inputs, adopted);
      return { id, outs: compact(outs) };
    },

    async read(id, props: O) {
      holdings?.noteHeld(id, calls.what(props));
      try {
        return await calls.read(id, props);
      } catch (err) {
        await gone(err, `refresh ${calls.what(props)} (${id})`, props);
        warn(`${calls.what(props)} (${id}) no longer exists; it was deleted outside Pulumi and leaves the state`);
        return { id: "", props: {} };
      }
    },

    async update(id, olds: O, news: I) {
      holdings?.noteHeld(id, calls.what(olds));
      try {
        return { outs: compact(await calls.update(id, olds, news)) };
      } catch (err) {
        if (calls.updateVerb !== undefined) await gone(err, `${calls.updateVerb} ${calls.what(olds)} (${id})`, olds);
        throw err;
      }
    },

    async delete(id, props: O) {
      // Deleting it would take the object from the resource that adopted it or keeps it.
      if (holdings?.heldByAnother(id, calls.what(props))) return;
      try {
        await calls.delete(id, props);
      } catch (err) {
        await gone(err, `delete ${calls.what(props)} (${id})`, props);
        // After a lost first attempt, the retry's NOT_FOUND is that attempt's delete.
        if (!(err as ApiError).afterLostAttempt) warn(`${calls.what(props)} (${id}) was already gone`);
      }
    },
  };
}
