import { Holdings } from "../../lifecycle/adoption";

/** The workspaces the stack's resources stand for in this update, and those adopted in it. */
export const workspaceHoldings = new Holdings("workspace");
