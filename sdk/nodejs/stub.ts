import type * as pulumi from "@pulumi/pulumi";

/**
 * The provider serialized into each resource's state: only its kind (CONTRIBUTING, "Layout"). The
 * `require` calls stay inside the methods: anything referenced from outside would be serialized.
 */
export class ProviderStub implements pulumi.dynamic.ResourceProvider {
  constructor(private readonly kind: string) {}

  configure(req: pulumi.dynamic.ConfigureRequest) {
    return require("pulumi-squarecloud/provider").configure(req);
  }
  check(olds: any, news: any) {
    return require("pulumi-squarecloud/provider").handlers[this.kind].check(olds, news);
  }
  diff(id: string, olds: any, news: any) {
    return require("pulumi-squarecloud/provider").handlers[this.kind].diff(id, olds, news);
  }
  create(inputs: any) {
    return require("pulumi-squarecloud/provider").handlers[this.kind].create(inputs);
  }
  read(id: string, props: any) {
    return require("pulumi-squarecloud/provider").handlers[this.kind].read(id, props);
  }
  update(id: string, olds: any, news: any) {
    return require("pulumi-squarecloud/provider").handlers[this.kind].update(id, olds, news);
  }
  delete(id: string, props: any) {
    return require("pulumi-squarecloud/provider").handlers[this.kind].delete(id, props);
  }
}
