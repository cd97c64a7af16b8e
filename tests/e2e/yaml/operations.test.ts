import { allThree, type Operations, operationsLifecycle } from "../lifecycles/operations";
import { yamlStack } from "../harness/stack";

// AppSnapshot, DatabaseRestore and AppFileMove declared in a Pulumi YAML program, served by the
// native plugin: each operation runs once, by the up that creates it.

function operationsProgram(operations: Operations) {
  const { snapshot, restore, move } = allThree(operations);
  return {
    resources: {
      snapshot: { type: "squarecloud:index:AppSnapshot", properties: snapshot },
      restore: { type: "squarecloud:index:DatabaseRestore", properties: restore },
      move: { type: "squarecloud:index:AppFileMove", properties: move },
    },
    outputs: {
      snapshotUrl: "${snapshot.url}",
      snapshotKey: "${snapshot.key}",
      takenAt: "${snapshot.takenAt}",
      restoredAt: "${restore.restoredAt}",
      movedAt: "${move.movedAt}",
    },
  };
}

operationsLifecycle(async (first, options) => {
  const program = await yamlStack("native-operations", operationsProgram(first), options);
  return { ...program, setOperations: (operations) => program.setProgram(operationsProgram(operations)) };
});
