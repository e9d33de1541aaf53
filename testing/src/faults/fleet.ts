import { PrivateRedis, type PrivateRedisOptions } from "../private-redis";
import { ServiceProcess, type ENTRY } from "../processes";

/** Every drill's service processes still running, killed if this process exits first (a failed or interrupted chaos run). */
const alive = new Set<ServiceProcess>();
process.once("exit", () => {
  for (const service of alive) service.child.kill("SIGKILL");
});

/** Everything one drill started (service processes, private Redis servers), killed together when it ends, however it ends. */
export class Fleet {
  private readonly processes: ServiceProcess[] = [];
  private readonly servers: PrivateRedis[] = [];

  start(entry: keyof typeof ENTRY, env: Record<string, string>): ServiceProcess {
    const service = ServiceProcess.start(entry, env);
    this.processes.push(service);
    alive.add(service);
    void service.exited.then(() => alive.delete(service));
    return service;
  }

  async redis(options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
    const server = await PrivateRedis.start(options);
    this.servers.push(server);
    return server;
  }

  async close(): Promise<void> {
    await Promise.all(this.processes.splice(0).map((service) => service.stop("SIGKILL")));
    await Promise.all(this.servers.splice(0).map((server) => server.close()));
  }
}

/** The log line a provider-worker process writes once its workers consume. */
export const workersStarted = (service: ServiceProcess) => service.waitForLog((l) => l.msg === "provider workers started", "the workers started");
