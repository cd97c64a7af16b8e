import { z } from "zod";
import { ApiId, type WorkspaceApp, WorkspaceMember } from "../client/payloads/platform";
import { isUnknown } from "../field-check";
import type { Visibility } from "../lifecycle/gone";
import { declareKind, field, type InputsOf, type OutputsOf } from "./declaration";
import { NAME_RULE, shortName } from "./names";

/** Another account's key gets PERMISSION_DENIED (a member's) or WORKSPACE_NOT_FOUND: neither means gone. */
export const WORKSPACE_VISIBILITY: Visibility = { notFound: "WORKSPACE_NOT_FOUND", deniedToOthers: true };

/**
 * An application linked to a workspace: the one object type (WorkspaceApplication in the package
 * schema) of the Workspace resource's `linkedApplications` and the workspace data sources'.
 * `language` is optional there only because a field new to a type must be, to break no program;
 * it is always set. `lang`, the API's own name, stays for a release beside it.
 */
export const LinkedApplication = field(
  z.object({
    id: field(z.string(), "The application's id."),
    name: field(z.string(), "The application's name."),
    ram: field(z.number(), "The application's RAM, in MB."),
    language: field(z.string().optional(), "The application's language or runtime."),
    lang: field(z.string(), "The application's language or runtime, as `language`.", {
      deprecation: "Use `language`; `lang` is removed in a later release.",
    }),
  }),
  "An application linked to a workspace, as the API lists it.",
);

/** A linked application as the API lists it, under both of its names. */
export function linkedApplication({ id, name, ram, lang }: WorkspaceApp): z.infer<typeof LinkedApplication> {
  return { id, name, ram, language: lang, lang };
}

export const workspace = declareKind({
  name: "Workspace",
  kind: "workspace",
  description: `A workspace: a group of users who share applications. Its members are \`WorkspaceMember\`
resources.

\`applications\` is the complete list of linked application ids, in any order: \`pulumi up\` links
what is missing and unlinks what is no longer listed (left out, links are not managed; \`[]\`
unlinks all). There is no rename endpoint: a new \`name\` REPLACES the workspace, which drops
every member and link, and every member then needs a fresh invite code; the preview warns.
\`adoptId\` takes over an existing workspace the caller owns. Only the owner's key can delete it.`,
  inputs: {
    name: field(shortName, `${NAME_RULE}. There is no rename: the new workspace has no members or links.`),
    applications: field(
      z.array(ApiId, { error: "must be a list of application ids" }).optional(),
      "The ids of the linked applications, complete and in any order. Left out, links are not managed; `[]` means none.",
    ),
    adoptId: field(
      ApiId.optional(),
      "Take over this existing workspace (owned by the caller) at creation; read only then.",
    ),
  },
  outputs: {
    owner: field(z.string(), "User id of the owner: only its key may delete the workspace or manage members."),
    createdAt: field(z.string(), "ISO 8601 time the workspace was created."),
    members: field(
      z.array(WorkspaceMember),
      "Everyone in the workspace, the owner included, as of the last up or refresh.",
      {
        schemaType: "WorkspaceMemberInfo",
      },
    ),
    applications: field(
      z.array(z.string()),
      "The ids of the linked applications as the API reports them after up; at preview, the program's list (the same shape either way).",
    ),
    linkedApplications: field(
      z.array(LinkedApplication),
      "The linked applications as the API reports them (id, name, ram, language); unknown at preview.",
      { schemaType: "WorkspaceApplication" },
    ),
  },
  replaceOn: ["name"],
  updateOn: ["applications"],
  changes: {
    // A set: order carries no meaning. Left out, links are not managed.
    applications: (olds, news) => {
      const wanted = news.applications as string[] | undefined;
      if (wanted === undefined) return "none";
      return isUnknown(wanted) || !sameSet(linkedIds(olds), wanted) ? "inPlace" : "none";
    },
  },
  visibility: WORKSPACE_VISIBILITY,
  adoption: { noun: "workspace" },
  apis: ["platform"],
  import: { brings: "name, the linked applications' ids, members, owner" },
});

export type WorkspaceInputs = InputsOf<typeof workspace>;
export type WorkspaceOutputs = OutputsOf<typeof workspace>;

/** Outputs as any version stored them: before 0.1.0, `applications` held the API's application objects. */
export type StoredWorkspaceOutputs = Omit<WorkspaceOutputs, "applications"> & {
  applications?: (string | WorkspaceApp)[];
};

/** The ids of the linked applications recorded in state, ids or (as builds before 0.1.0 stored them) objects. */
export function linkedIds(props: { applications?: (string | { id: string })[] }): string[] {
  return (props.applications ?? []).map((app) => (typeof app === "string" ? app : app.id));
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === new Set(b).size && b.every((item) => a.includes(item));
}
