import { Holdings } from "../../lifecycle/adoption";

/** The databases the stack's resources stand for in this update, and those adopted in it. */
export const databaseHoldings = new Holdings("database");
