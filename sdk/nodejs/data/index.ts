/**
 * Data sources: plain functions that read the platform and blob APIs from the program's process
 * (a dynamic provider cannot serve invokes). Each comes as `getX` (a Promise) and `getXOutput`
 * (an Output, taking Inputs), generated from its declaration in provider/functions, whose read
 * the native plugin also serves to the other languages as `squarecloud:index:getX`.
 */
export * from "./functions";
export * from "./conveniences";
export type { DataSourceOptions } from "./options";
