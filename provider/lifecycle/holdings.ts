import { warn } from "../channels";
import type { AnyKind } from "../kinds/declaration";
import { entryOf } from "../map-entry";

/**
 * Two resources of a stack never manage one object: the ids this update's resources stand for,
 * and those adopted in it (docs/reliability.md, "One object, one resource").
 */
export class Holdings {
  private readonly held = new Set<string>();
  private readonly adopted = new Set<string>();
  /** Held by resources that stay in the program with their object: their diff planned no replacement. */
  private readonly kept = new Set<string>();

  /** `kind` names the objects in messages: "database", "workspace", "object". */
  constructor(readonly kind: string) {}

  /** A resource of the stack has just created this object. */
  noteCreated(id: string): void {
    this.held.add(id);
  }

  /** Refused when another resource adopted it in this update, whichever the engine reaches first. */
  noteHeld(id: string, what: string): void {
    if (this.adopted.has(id)) {
      throw new Error(
        `${what} (${id}) was adopted by another resource of this stack in this update; two resources must not ` +
          `manage one ${this.kind}: remove adoptId from the resource that should not hold it`,
      );
    }
    this.held.add(id);
  }

  /** A resource staying in the program keeps this object: its diff planned no replacement. */
  noteKept(id: string): void {
    this.kept.add(id);
  }

  /** Nothing held, adopted or kept, as at a new update's start. */
  forget(): void {
    this.held.clear();
    this.adopted.clear();
    this.kept.clear();
  }

  isHeld(id: string): boolean {
    return this.held.has(id);
  }

  /**
   * Refused before any request when held; checked again after `inspect`'s read, so of two resources
   * adopting one object in this update exactly one gets it.
   */
  async adopt<T>(id: string, inspect: () => Promise<T>): Promise<T> {
    const operation = `adopt ${this.kind} ${id}`;
    this.refuseIfHeld(operation, id);
    const inspected = await inspect();
    this.refuseIfHeld(operation, id);
    this.held.add(id);
    this.adopted.add(id);
    return inspected;
  }

  private refuseIfHeld(operation: string, id: string): void {
    if (!this.held.has(id)) return;
    throw new Error(
      `${operation}: another resource of this stack already holds it; two resources must not manage one ` +
        `${this.kind} (each would change or delete it for the other)`,
    );
  }

  /**
   * For delete: adopted by another resource in this update, or kept by one that stays in the program
   * (the engine deletes what left the program after the program's own resources passed through diff),
   * so this one only leaves the state.
   */
  heldByAnother(id: string, what: string): boolean {
    if (!this.adopted.has(id) && !this.kept.has(id)) return false;
    warn(`${what} (${id}) is now held by another resource of this stack; it leaves the state but is not deleted`);
    return true;
  }

  /** For diff: a replacement would adopt the object again and then delete it. */
  refuseSelfAdoption(what: string, id: string, adoptId: unknown, replaces: readonly string[]): void {
    if (replaces.length === 0 || adoptId !== id) return;
    throw new Error(
      `${what} (${id}) cannot be replaced (${replaces.join(", ")} changed) while adoptId still names it: the ` +
        `replacement would adopt it again and then delete it. Remove adoptId from the program (it is read only at the ` +
        `first creation) and run pulumi up again.`,
    );
  }
}

const byKind = new Map<string, Holdings>();

/** The one Holdings of an adoptable kind (its declaration's `adoption`) in this process. */
export function holdingsOf(kind: AnyKind): Holdings {
  if (!kind.adoption) throw new Error(`${kind.name} declares no adoption`);
  const { noun } = kind.adoption;
  return entryOf(byKind, kind.kind, () => new Holdings(noun));
}

/** A plugin the engine attaches to serves update after update in one process: each starts with nothing held. */
export function forgetHoldings(): void {
  for (const holdings of byKind.values()) holdings.forget();
}
