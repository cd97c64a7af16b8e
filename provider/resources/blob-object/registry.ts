/**
 * Object ids the stack's resources stand for, as seen by this provider process (one per update):
 * a lost upload is never reconciled to an object another resource holds, and an object is not
 * adopted twice.
 */
const held = new Set<string>();

export function noteHeld(id: string): void {
  held.add(id);
}

export function isHeld(id: string): boolean {
  return held.has(id);
}
