// The smallest program with a dynamic resource: proves the engine, the language host and the
// dynamic-provider launcher work together, independently of the provider's own resources.
import * as pulumi from "@pulumi/pulumi";

interface GreetingInputs {
  message: string;
}

const greetingProvider: pulumi.dynamic.ResourceProvider<GreetingInputs> = {
  async create(inputs) {
    return { id: `greeting-${inputs.message.length}`, outs: { ...inputs, shout: inputs.message.toUpperCase() } };
  },
  async diff(_id, olds, news) {
    return { changes: olds.message !== news.message };
  },
  async update(_id, _olds, news) {
    return { outs: { ...news, shout: news.message.toUpperCase() } };
  },
  async read(id, props) {
    return { id, props };
  },
};

class Greeting extends pulumi.dynamic.Resource {
  declare readonly shout: pulumi.Output<string>;
  constructor(name: string, args: { message: pulumi.Input<string> }) {
    super(greetingProvider, name, { ...args, shout: undefined }, {});
  }
}

const config = new pulumi.Config();
const greeting = new Greeting("greeting", { message: config.require("message") });

export const shout = greeting.shout;
export const greetingId = greeting.id;
// A secret output and a plain one holding a secret: the harness's results must read both as the
// Automation API does (tests/e2e/harness/run-results.ts).
export const secretShout = pulumi.secret(greeting.shout);
export const nested = { shout: greeting.shout, hush: pulumi.secret("hush") };
