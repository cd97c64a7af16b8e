// A production database that Pulumi will not delete by accident.
//
// protect: true        `pulumi destroy`, or a change that would replace the database (a new type
//                      or version), stops with an error instead of deleting data. To delete it on
//                      purpose, set protect to false (or `pulumi state unprotect <urn>`) first.
// retainOnDelete: true when the resource leaves the program or the stack is destroyed, Pulumi
//                      forgets it but the database keeps running on Square Cloud. Adopt it again
//                      later with `adoptId`.
import * as pulumi from "@pulumi/pulumi";
import * as sq from "pulumi-squarecloud";

const config = new pulumi.Config();

const orders = new sq.Database(
  "orders",
  {
    name: "orders",
    type: "mongo",
    memory: config.getNumber("ordersMemory") ?? 2048,
    version: "7.0",
    // Set to take over a database made outside Pulumi (or retained by an earlier stack).
    adoptId: config.get("ordersAdoptId"),
    // Change to any new value to reset the password and capture the new one.
    passwordRotation: config.get("ordersPasswordRotation"),
  },
  { protect: true, retainOnDelete: true },
);

export const ordersId = orders.id;
export const ordersUrl = orders.connectionUrl;
