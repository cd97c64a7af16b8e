import { warn } from "../handler";
import type { AnyKind } from "../kinds/declaration";
import { entryOf } from "../map-entry";

/**
 * Two resources of a stack never manage one object: the ids this update's resources stand for,
 * and those adopted in it (docs/reliability.md, "One object, one resource").
 */
export class Holdings {
  private readonly held = new Set<string>();
  private readonly adopted = new Set<string>();

  /** `kind` names the objects in messages: "database", "workspace", "object". */
  constructor(readonly kind: string) {}

  /** A resource of the stack has just created this object. */
  noteCreated(id: string): void {
    this.held.add(id);
  }

  /**
   * A resource of the stack stands for this object (its diff, read or update). Refused when
   * another resource adopted it in this update: whichever of the two the engine reaches first,
   * the stack never goes on with two resources managing one object.
   */
  noteHeld(id: string, what: string): void {
    if (this.adopted.has(id)) {
      throw new Error(
        `${what} (${id}) was adopted by another resource of this stack in this update; two resources must not ` +
          `manage one ${this.kind}: remove adoptId from the resource that should not hold it`,
      );
    }
    this.held.add(id);
  }

  isHeld(id: string): boolean {
    return this.held.has(id);
  }

  /**
   * Takes the object over for a resource with adoptId. An object another resource of the stack
   * holds is refused before any request; `inspect` then reads the object and throws when it is
   * not what the inputs describe (each kind's own checks); only then is the object claimed, and
   * what `inspect` returned handed back. The claim checks again: of two resources adopting one
   * object in this update (both past the first check while their reads were awaited), exactly one
   * gets it. Messages begin with the operation, e.g. `adopt database db_1`.
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
   * For delete: true when another resource adopted the object in this update, so the resource
   * being deleted only leaves the state. Says so in a warning.
   */
  passedToAdopter(id: string, what: string): boolean {
    if (!this.adopted.has(id)) return false;
    warn(`${what} (${id}) is now held by another resource of this stack; it leaves the state but is not deleted`);
    return true;
  }

  /**
   * For diff: refuses a replacement while adoptId still names the object being replaced, and
   * says what to do. `replaces` are the inputs whose change makes it a replacement (none: no
   * replacement, nothing to refuse).
   */
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
