import { Socket } from "node:net";

/**
 * Preloaded (`node --require`) into the Windows Node that tests/e2e/yaml/windows-plugin.test.ts
 * runs under Wine: TCP keepalive asked for while a socket connects is set once it has connected.
 *
 * Why: Wine 8.0's sockets lack the TCP_KEEPALIVE option that every Windows since 7 has (Wine
 * logs `setsockopt Unknown IPPROTO_TCP optname 0x00000003`). libuv sets it when it creates the
 * socket of a connection asked for keepalive, as undici asks for each of the provider's, and
 * fails the connect with it (`connect UNKNOWN`; libuv/libuv#71 is the same on Windows XP). On a
 * connected socket Node ignores the failure: the provider runs as on Windows, only without
 * keepalive probes.
 */
const setKeepAlive = Socket.prototype.setKeepAlive;
Socket.prototype.setKeepAlive = function (this: Socket, ...args: Parameters<Socket["setKeepAlive"]>) {
  if (!this.connecting) return setKeepAlive.apply(this, args);
  this.once("connect", () => setKeepAlive.apply(this, args));
  return this;
};
