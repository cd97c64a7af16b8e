import { PLUGIN_DOWNLOAD_URL } from "../../../scripts/gen/repository";
import { GO_MODULE_PATH } from "../../../scripts/gen/schema";

/**
 * The upgrade tests' programs, one per language, each declaring the same resources a user's stack
 * holds: a redis Database (its password and connection URL secrets), a Workspace and a BlobObject
 * from a text, with the database's id, password and URL as stack outputs. The same source runs on
 * the release that made the recorded stack and on the current build: only the SDK installed (and,
 * in YAML, the plugin version named) differs.
 */

export const LANGUAGES = ["typescript", "yaml", "python", "go", "java"] as const;
export type Language = (typeof LANGUAGES)[number];

/** The project of a language's program: its name is in every URN of the recorded state. */
export const projectName = (language: Language): string => `upgrade-${language}`;

/** The names the resources take on the service, distinct per language so every stack's objects live in one emulator. */
function names(language: Language) {
  const short = { typescript: "ts", yaml: "yaml", python: "py", go: "go", java: "java" }[language];
  return { database: `${short}cache`, workspace: `${short}_team`, object: `${short}notes` };
}

/** The object's text: the service takes objects of 1 KiB and more. */
const NOTES = "notes kept across upgrades. ".repeat(40);

/** The program's files (beside Pulumi.yaml's name and runtime), for an SDK or plugin of `version`. */
export function programFiles(language: Language, version: string): Record<string, string> {
  const n = names(language);
  switch (language) {
    case "typescript":
      return {
        "index.ts": `import * as pulumi from "@pulumi/pulumi";
import * as sq from "pulumi-squarecloud";

const cache = new sq.Database("cache", { name: "${n.database}", type: "redis", version: "7.4.5", memory: 512 });
new sq.Workspace("team", { name: "${n.workspace}" });
const notes = new sq.BlobObject("notes", {
  name: "${n.object}",
  prefix: "upgrade",
  source: new pulumi.asset.StringAsset("${NOTES}"),
});

export const cacheId = cache.id;
export const cachePassword = cache.password;
export const cacheUrl = cache.connectionUrl;
export const notesUrl = notes.url;
`,
      };
    case "yaml":
      return {
        "Pulumi.yaml": `resources:
  cache:
    type: squarecloud:index:Database
    properties: { name: ${n.database}, type: redis, version: "7.4.5", memory: 512 }
    options: { version: ${version}, pluginDownloadURL: ${PLUGIN_DOWNLOAD_URL} }
  team:
    type: squarecloud:index:Workspace
    properties: { name: ${n.workspace} }
    options: { version: ${version}, pluginDownloadURL: ${PLUGIN_DOWNLOAD_URL} }
  notes:
    type: squarecloud:index:BlobObject
    properties:
      name: ${n.object}
      prefix: upgrade
      source:
        fn::stringAsset: "${NOTES}"
    options: { version: ${version}, pluginDownloadURL: ${PLUGIN_DOWNLOAD_URL} }
outputs:
  cacheId: \${cache.id}
  cachePassword: \${cache.password}
  cacheUrl: \${cache.connectionUrl}
  notesUrl: \${notes.url}
`,
      };
    case "python":
      return {
        "__main__.py": `import pulumi
import pulumi_squarecloud as sq

cache = sq.Database("cache", name="${n.database}", type="redis", version="7.4.5", memory=512)
sq.Workspace("team", name="${n.workspace}")
notes = sq.BlobObject("notes", name="${n.object}", prefix="upgrade", source=pulumi.StringAsset("${NOTES}"))

pulumi.export("cacheId", cache.id)
pulumi.export("cachePassword", cache.password)
pulumi.export("cacheUrl", cache.connection_url)
pulumi.export("notesUrl", notes.url)
`,
      };
    case "go":
      return {
        "main.go": `package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	sq "${GO_MODULE_PATH}/squarecloud"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cache, err := sq.NewDatabase(ctx, "cache", &sq.DatabaseArgs{
			Name: pulumi.String("${n.database}"), Type: pulumi.String("redis"),
			Version: pulumi.String("7.4.5"), Memory: pulumi.Int(512),
		})
		if err != nil {
			return err
		}
		if _, err := sq.NewWorkspace(ctx, "team", &sq.WorkspaceArgs{Name: pulumi.String("${n.workspace}")}); err != nil {
			return err
		}
		notes, err := sq.NewBlobObject(ctx, "notes", &sq.BlobObjectArgs{
			Name: pulumi.String("${n.object}"), Prefix: pulumi.String("upgrade"),
			Source: pulumi.NewStringAsset("${NOTES}"),
		})
		if err != nil {
			return err
		}
		ctx.Export("cacheId", cache.ID())
		ctx.Export("cachePassword", cache.Password)
		ctx.Export("cacheUrl", cache.ConnectionUrl)
		ctx.Export("notesUrl", notes.Url)
		return nil
	})
}
`,
      };
    case "java":
      return {
        "App.java": `import com.pulumi.Pulumi;
import com.pulumi.asset.StringAsset;
import io.github.squarecloud.squarecloud.BlobObject;
import io.github.squarecloud.squarecloud.BlobObjectArgs;
import io.github.squarecloud.squarecloud.Database;
import io.github.squarecloud.squarecloud.DatabaseArgs;
import io.github.squarecloud.squarecloud.Workspace;
import io.github.squarecloud.squarecloud.WorkspaceArgs;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var cache = new Database("cache", DatabaseArgs.builder()
                .name("${n.database}").type("redis").version("7.4.5").memory(512).build());
            new Workspace("team", WorkspaceArgs.builder().name("${n.workspace}").build());
            var notes = new BlobObject("notes", BlobObjectArgs.builder()
                .name("${n.object}").prefix("upgrade").source(new StringAsset("${NOTES}")).build());
            ctx.export("cacheId", cache.id());
            ctx.export("cachePassword", cache.password());
            ctx.export("cacheUrl", cache.connectionUrl());
            ctx.export("notesUrl", notes.url());
        });
    }
}
`,
      };
  }
}
