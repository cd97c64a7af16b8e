// Declares the databases given in config `databases` (an object: logical name -> Database args),
// so one program serves every database scenario of the e2e suite.
import * as pulumi from "@pulumi/pulumi";
import { Database, type DatabaseArgs } from "pulumi-squarecloud";

const specs = new pulumi.Config().requireObject<Record<string, DatabaseArgs>>("databases");

export const databases = Object.fromEntries(
  Object.entries(specs).map(([key, args]) => {
    const db = new Database(key, args);
    const view = {
      id: db.id,
      name: db.name,
      type: db.type,
      memory: db.memory,
      owner: db.owner,
      password: db.password,
      certificate: db.certificate,
      connectionUrl: db.connectionUrl,
    };
    return [key, view];
  }),
);
