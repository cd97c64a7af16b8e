import { Holdings } from "../../lifecycle/adoption";

/**
 * The objects the stack's resources stand for in this update, and those adopted in it: a lost
 * upload is never reconciled to an object another resource holds, and no object is adopted twice.
 */
export const objectHoldings = new Holdings("object");
