import { allThree, type Operations, operationsLifecycle } from "../lifecycles/operations";
import { pythonStack } from "../harness/stack";

// AppSnapshot, DatabaseRestore and AppFileMove declared in a Pulumi Python program with the
// generated SDK, served by the native plugin: each operation runs once, by the up that creates it.

function operationsProgram(operations: Operations): string {
  const { snapshot, restore, move } = allThree(operations);
  const text = JSON.stringify;
  return `import pulumi
import pulumi_squarecloud as squarecloud

snapshot = squarecloud.AppSnapshot("snapshot", app_id=${text(snapshot.appId)}, trigger=${text(snapshot.trigger)})
restore = squarecloud.DatabaseRestore("restore", database_id=${text(restore.databaseId)}, snapshot_id=${text(restore.snapshotId)},
                                      version_id=${text(restore.versionId)}, confirm=${restore.confirm ? "True" : "False"})
move = squarecloud.AppFileMove("move", app_id=${text(move.appId)}, path=${text(move.path)}, to=${text(move.to)})
pulumi.export("snapshotUrl", snapshot.url)
pulumi.export("snapshotKey", snapshot.key)
pulumi.export("takenAt", snapshot.taken_at)
pulumi.export("restoredAt", restore.restored_at)
pulumi.export("movedAt", move.moved_at)
`;
}

operationsLifecycle(async (first, options) => {
  const program = await pythonStack("python-operations", operationsProgram(first), options);
  return { ...program, setOperations: (operations) => program.setProgram(operationsProgram(operations)) };
});
