import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { aggregatorEnv, gatewayEnv, loadEnv, SECRET_VARIABLES, secretVariables, webhookWorkerEnv, workerEnv } from "@sd/config";
import { voteQueueName } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { activeJobsKey, waitingJobsKey, WEBHOOK_QUEUE } from "@sd/queue";
import { closeServer, startHealthServer } from "@sd/runtime";
import { registry } from "@sd/telemetry";
import { clusterSettings, GENERATED_FILES, renderScaledObjects } from "../../k8s/generate";
import { testEnv } from "@sd/testing/env";
import { startStack, type InProcessStack } from "@sd/testing/stack";

/**
 * The Kubernetes manifests against the code they deploy: a probe on a path the process does not
 * answer, a Service that selects no pod or a KEDA trigger on a queue nobody fills fails only in a
 * cluster, hours later. Every manifest is parsed and cross-checked here.
 */
const K8S = fileURLToPath(new URL("../../k8s/", import.meta.url));

interface Manifest {
  file: string;
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // The manifests' own shapes; each check reads only what it needs.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}
interface Port { name?: string; containerPort: number }
interface Probe { httpGet: { path: string; port: string | number } }
interface Container {
  name: string;
  image: string;
  ports?: Port[];
  env?: { name: string; value: string }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  resources?: { requests?: { cpu?: string; memory?: string } };
}

const yamlFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return name.endsWith(".yaml") ? [relative(K8S, path)] : [];
  });

const manifests: Manifest[] = yamlFiles(K8S).flatMap((file) =>
  parseAllDocuments(readFileSync(join(K8S, file), "utf8")).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]!.message}`);
    return { ...(doc.toJS() as Omit<Manifest, "file">), file };
  }),
);
const ofKind = (kind: string) => manifests.filter((m) => m.kind === kind);
const named = (kind: string, name: string) => {
  const found = ofKind(kind).find((m) => m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} named ${name}`);
  return found;
};
const configMap = named("ConfigMap", "smart-decision-config");
const configMapText = readFileSync(join(K8S, "configmap.yaml"), "utf8");
const deployments = ofKind("Deployment");
const containerOf = (deployment: Manifest): Container => deployment.spec.template.spec.containers[0];
const podLabels = (deployment: Manifest): Record<string, string> => deployment.spec.template.metadata.labels;
const selects = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);
/** The environment a container sees: the ConfigMap, then its own env (the Secret's values are placeholders here). */
const containerEnv = (deployment: Manifest) => ({ ...configMap.data, ...Object.fromEntries((containerOf(deployment).env ?? []).map((e) => [e.name, e.value])) });
const probesOf = (container: Container) => ({ startup: container.startupProbe, liveness: container.livenessProbe, readiness: container.readinessProbe });

describe("every manifest", () => {
  it("parses, and names its kind and object", () => {
    expect(manifests.length).toBeGreaterThan(10);
    for (const m of manifests.filter((m) => m.kind !== "Kustomization")) {
      expect([m.file, typeof m.apiVersion, typeof m.kind, typeof m.metadata?.name]).toEqual([m.file, "string", "string", "string"]);
    }
  });

  it("is applied by a kustomization unless it is an example, and every listed resource exists", () => {
    const kustomizations = ofKind("Kustomization");
    const listed = new Set(kustomizations.flatMap((k) => (k as unknown as { resources: string[] }).resources.map((r) => join(k.file, "..", r))));
    for (const file of listed) expect(manifests.some((m) => m.file === file), file).toBe(true);
    const applied = manifests.filter((m) => m.kind !== "Kustomization" && !m.file.endsWith(".example.yaml"));
    for (const m of applied) expect(listed.has(m.file), `${m.file} is in no kustomization.yaml`).toBe(true);
  });
});

describe("deployments, services and their selectors", () => {
  it("each Deployment's selector matches its own pods, and its labels name the component", () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(["aggregator", "gateway", "provider-worker", "webhook-worker"]);
    for (const d of deployments) {
      expect(selects(d.spec.selector.matchLabels, podLabels(d)), d.metadata.name).toBe(true);
      expect(podLabels(d)["app.kubernetes.io/component"]).toBe(d.metadata.name);
    }
  });

  it("each Service selects exactly one Deployment's pods, on a port its container declares", () => {
    for (const service of ofKind("Service")) {
      const targets = deployments.filter((d) => selects(service.spec.selector, podLabels(d)));
      expect(targets.map((d) => d.metadata.name), service.metadata.name).toHaveLength(1);
      const portNames = (containerOf(targets[0]!).ports ?? []).map((p) => p.name);
      for (const port of service.spec.ports as { targetPort: string }[]) expect(portNames, service.metadata.name).toContain(port.targetPort);
    }
  });

  it("each PodDisruptionBudget, autoscaler and ScaledObject points at a Deployment", () => {
    for (const pdb of ofKind("PodDisruptionBudget")) expect(deployments.filter((d) => selects(pdb.spec.selector.matchLabels, podLabels(d))), pdb.metadata.name).toHaveLength(1);
    for (const scaler of [...ofKind("HorizontalPodAutoscaler"), ...ofKind("ScaledObject")]) expect(deployments.map((d) => d.metadata.name)).toContain(scaler.spec.scaleTargetRef.name);
  });

  it("listens where the code listens: the gateway on PORT and METRICS_PORT, the workers on HEALTH_PORT", () => {
    const port = (d: Manifest, name: string) => containerOf(d).ports!.find((p) => p.name === name)!.containerPort;
    const gateway = named("Deployment", "gateway");
    expect(port(gateway, "http")).toBe(loadEnv(gatewayEnv, containerEnv(gateway)).PORT);
    expect(port(gateway, "metrics")).toBe(loadEnv(gatewayEnv, containerEnv(gateway)).METRICS_PORT);
    expect(gateway.spec.template.metadata.annotations["prometheus.io/port"]).toBe(String(port(gateway, "metrics")));
    expect(port(named("Deployment", "provider-worker"), "health")).toBe(loadEnv(workerEnv, containerEnv(named("Deployment", "provider-worker"))).HEALTH_PORT);
    expect(port(named("Deployment", "aggregator"), "health")).toBe(loadEnv(aggregatorEnv, containerEnv(named("Deployment", "aggregator"))).HEALTH_PORT);
    expect(port(named("Deployment", "webhook-worker"), "health")).toBe(loadEnv(webhookWorkerEnv, containerEnv(named("Deployment", "webhook-worker"))).HEALTH_PORT);
  });

  it("each Deployment runs the image of its own Dockerfile target, and kustomization.yaml tags every image", () => {
    const targets = [...readFileSync(new URL("../../Dockerfile", import.meta.url), "utf8").matchAll(/^FROM \S+ AS (\S+)$/gm)].map((m) => m[1]);
    const root = manifests.find((m) => m.file === "kustomization.yaml") as unknown as { images: { name: string }[] };
    const tagged = root.images.map((i) => i.name);
    for (const d of deployments) {
      expect(containerOf(d).image, d.metadata.name).toBe(`smart-decision-${d.metadata.name}`);
      expect(targets, d.metadata.name).toContain(d.metadata.name);
      expect(tagged, d.metadata.name).toContain(containerOf(d).image);
    }
  });

  it("lets a webhook-worker pod finish its deliveries in progress before it is killed", () => {
    const webhookWorker = named("Deployment", "webhook-worker");
    const env = loadEnv(webhookWorkerEnv, containerEnv(webhookWorker));
    // One attempt lasts at most the connect and response timeouts; then its row is logged and a retry queued.
    const attemptSeconds = (env.WEBHOOK_CONNECT_TIMEOUT_MS + env.WEBHOOK_RESPONSE_TIMEOUT_MS) / 1000;
    expect(webhookWorker.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(attemptSeconds + 10);
  });
});

describe("probes and metrics against the running code", () => {
  const emulator = useEmulator();
  let gateway: InProcessStack;
  let health: Awaited<ReturnType<typeof startHealthServer>>;
  let healthUrl: string;

  beforeAll(async () => {
    gateway = await startStack(testEnv(emulator.url));
    // The server provider-worker and aggregator run on HEALTH_PORT.
    health = await startHealthServer(0, async () => undefined, "127.0.0.1");
    healthUrl = `http://127.0.0.1:${(health.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    if (health) await closeServer(health);
    await gateway?.close();
  });

  it("every probe asks a path the process answers with 200, on a port its container declares", async () => {
    for (const d of deployments) {
      const container = containerOf(d);
      const base = d.metadata.name === "gateway" ? gateway.url : healthUrl;
      for (const [kind, probe] of Object.entries(probesOf(container))) {
        expect(probe, `${d.metadata.name} ${kind} probe`).toBeDefined();
        expect((container.ports ?? []).map((p) => p.name), `${d.metadata.name} ${kind} probe port`).toContain(probe!.httpGet.port);
        expect((await fetch(`${base}${probe!.httpGet.path}`)).status, `${d.metadata.name} ${kind} ${probe!.httpGet.path}`).toBe(200);
      }
    }
  });

  it("the ServiceMonitor scrapes /metrics of every component, on ports their Services name, never the public one", async () => {
    const monitor = named("ServiceMonitor", "smart-decision");
    const services = ofKind("Service").filter((s) => selects(monitor.spec.selector.matchLabels, s.metadata.labels ?? {}));
    const endpoints = monitor.spec.endpoints as { port: string; path: string }[];
    const scraped = new Set<string>();
    for (const service of services) {
      for (const endpoint of endpoints.filter((e) => (service.spec.ports as { name: string }[]).some((p) => p.name === e.port))) {
        scraped.add(service.spec.selector["app.kubernetes.io/component"] as string);
        expect(service.metadata.name, "the public Service (and the Ingress behind it) must not be scraped").not.toBe("gateway");
        const base = service.spec.selector["app.kubernetes.io/component"] === "gateway" ? gateway.metricsUrl : healthUrl;
        const response = await fetch(`${base}${endpoint.path}`);
        expect(response.status, `${service.metadata.name} ${endpoint.path}`).toBe(200);
        expect(await response.text()).toContain("sd_decisions_total");
      }
    }
    expect([...scraped].sort()).toEqual(["aggregator", "gateway", "provider-worker", "webhook-worker"]);
    // The public port, which the Ingress exposes, does not serve them.
    expect((await fetch(`${gateway.url}/metrics`)).status).toBe(404);
  });
});

describe("KEDA triggers", () => {
  const { prefix, providers, redisAddress } = clusterSettings(configMapText);
  const triggers = (name: string) =>
    named("ScaledObject", name).spec.triggers as { type: string; metricType?: string; metadata: { address?: string; listName?: string; listLength?: string; value?: string } }[];

  /** Each provider queue's list of the kind `key` names (running or waiting jobs). */
  const lists = (key: (prefix: string, queue: string) => string) => providers.map((p) => key(prefix, voteQueueName(p)));

  it("are the files k8s/generate.ts writes from the ConfigMap (run `npx tsx k8s/generate.ts` after editing it)", () => {
    const rendered = renderScaledObjects(configMapText);
    for (const file of GENERATED_FILES) expect(readFileSync(join(K8S, file), "utf8"), file).toBe(rendered[file]);
  });

  it("watch the running and waiting calls of each queue a worker consumes, under QUEUE_PREFIX, on the ConfigMap's Redis", () => {
    expect(triggers("provider-worker").map((t) => t.metadata.listName).sort()).toEqual([...lists(activeJobsKey), ...lists(waitingJobsKey)].sort());
    for (const t of triggers("provider-worker")) expect([t.type, t.metadata.address]).toEqual(["redis", redisAddress]);
  });

  it("add a worker pod when three quarters of its WORKER_CONCURRENCY slots are busy, or a pod's worth of calls waits", () => {
    const slots = loadEnv(workerEnv, containerEnv(named("Deployment", "provider-worker"))).WORKER_CONCURRENCY;
    const target = (key: (prefix: string, queue: string) => string) =>
      new Set(triggers("provider-worker").filter((t) => lists(key).includes(t.metadata.listName!)).map((t) => t.metadata.listLength));
    expect(target(activeJobsKey)).toEqual(new Set([String(Math.ceil(slots * 0.75))]));
    expect(target(waitingJobsKey)).toEqual(new Set([String(slots)]));
  });

  it("scale the webhook worker on the webhooks queue's running and waiting deliveries, per WEBHOOK_WORKER_CONCURRENCY", () => {
    const slots = loadEnv(webhookWorkerEnv, containerEnv(named("Deployment", "webhook-worker"))).WEBHOOK_WORKER_CONCURRENCY;
    expect(triggers("webhook-worker").map((t) => [t.type, t.metadata.address, t.metadata.listName, t.metadata.listLength])).toEqual([
      ["redis", redisAddress, activeJobsKey(prefix, WEBHOOK_QUEUE), String(Math.ceil(slots * 0.75))],
      ["redis", redisAddress, waitingJobsKey(prefix, WEBHOOK_QUEUE), String(slots)],
    ]);
  });

  it("scale the aggregator on CPU: its prioritized jobs are in no list (KEDA's Redis scaler reads lists only)", () => {
    expect(triggers("aggregator")).toEqual([{ type: "cpu", metricType: "Utilization", metadata: { value: "70" } }]);
    expect(containerOf(named("Deployment", "aggregator")).resources?.requests?.cpu).toBeDefined();
  });

  it("follow a change of QUEUE_PREFIX and PROVIDERS in the ConfigMap", () => {
    const changed = configMapText.replace(/QUEUE_PREFIX: .*/, "QUEUE_PREFIX: prod").replace(/PROVIDERS: .*/, "PROVIDERS: openai,claude");
    const worker = renderScaledObjects(changed)["provider-worker/scaledobject.yaml"];
    expect(worker).toContain(`listName: ${waitingJobsKey("prod", voteQueueName("claude"))}`);
    expect(worker).not.toContain(voteQueueName("gemini"));
  });
});

describe("gateway rollouts and the Ingress", () => {
  const gateway = named("Deployment", "gateway");
  const env = loadEnv(gatewayEnv, containerEnv(gateway));

  it("give a waiting decision request its whole DECISION_TIMEOUT_MS, after the preStop sleep, plus a drain margin", () => {
    const preStop = containerOf(gateway).lifecycle?.preStop?.exec?.command ?? [];
    const sleepSeconds = preStop[0] === "sleep" ? Number(preStop[1]) : 0;
    expect(gateway.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(sleepSeconds + env.DECISION_TIMEOUT_MS / 1000 + 10);
  });

  it("the example Ingress reaches the gateway Service and keeps WebSockets and long requests open", () => {
    const ingress = named("Ingress", "gateway");
    const backend = ingress.spec.rules[0].http.paths[0].backend.service as { name: string; port: { name: string } };
    const service = named("Service", backend.name);
    expect((service.spec.ports as { name: string }[]).map((p) => p.name)).toContain(backend.port.name);
    const annotation = (name: string) => ingress.metadata.annotations?.[`nginx.ingress.kubernetes.io/${name}`] ?? "";
    // A live socket lasts the page visit; a decision request lasts up to DECISION_TIMEOUT_MS.
    expect(Number(annotation("proxy-read-timeout"))).toBeGreaterThanOrEqual(env.DECISION_TIMEOUT_MS / 1000);
    expect(Number(annotation("proxy-send-timeout"))).toBeGreaterThanOrEqual(env.DECISION_TIMEOUT_MS / 1000);
    expect(Number.parseInt(annotation("proxy-body-size"), 10)).toBeGreaterThanOrEqual(env.BODY_LIMIT_MB);
  });
});

describe("secrets", () => {
  const secretText = readFileSync(join(K8S, "secret.example.yaml"), "utf8");
  /** Keys of the example, the commented-out optional ones included. */
  const named = new Set([...secretText.matchAll(/^ {2}#? ?([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]));

  it("secret.example.yaml names every secret variable, each provider's API key included", () => {
    const { providers } = clusterSettings(configMapText);
    for (const variable of secretVariables(providers)) expect(named.has(variable), variable).toBe(true);
  });

  it("every credential-like variable of the env schemas is a secret variable", () => {
    const all = Object.keys({ ...gatewayEnv.shape, ...workerEnv.shape, ...aggregatorEnv.shape, ...webhookWorkerEnv.shape });
    const credentials = all.filter((name) => /SECRET|PASSWORD|ENCRYPTION|_API_KEY$|CLIENT_ID$/.test(name));
    expect(credentials.length).toBeGreaterThan(2);
    for (const name of credentials) expect(SECRET_VARIABLES as readonly string[], name).toContain(name);
    for (const name of SECRET_VARIABLES) expect(all, name).toContain(name);
  });

  it("the ConfigMap holds no secret, and its REDIS_URL no password", () => {
    const inConfigMap = Object.keys(configMap.data ?? {}).filter((name) => (SECRET_VARIABLES as readonly string[]).includes(name));
    expect(inConfigMap).toEqual(["REDIS_URL"]);
    expect(new URL(configMap.data!.REDIS_URL!).password).toBe("");
  });
});

describe("the Grafana dashboard (ops/grafana/smart-decision.json)", () => {
  interface Panel { title: string; targets?: { expr: string }[]; panels?: Panel[] }
  const dashboard = JSON.parse(readFileSync(new URL("../../ops/grafana/smart-decision.json", import.meta.url), "utf8")) as { panels: Panel[] };
  const panels = (list: Panel[]): Panel[] => list.flatMap((p) => [p, ...panels(p.panels ?? [])]);
  const queries = panels(dashboard.panels).flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

  /** Every series /metrics exposes from our own metrics (a histogram as _bucket, _sum and _count), with its label names. */
  const series = new Map<string, string[]>(
    registry
      .getMetricsAsArray()
      .filter((metric) => metric.name.startsWith("sd_"))
      .flatMap((metric) => {
        // prom-client's metric objects carry their label names, which its MetricObject type leaves out.
        const { name, type, labelNames = [] } = metric as unknown as { name: string; type: string; labelNames?: string[] };
        return type === "histogram"
          ? [[`${name}_bucket`, [...labelNames, "le"]], [`${name}_sum`, labelNames], [`${name}_count`, labelNames]]
          : [[name, labelNames]];
      }),
  );

  it("charts decisions by outcome, vote latency by provider, queue depth and errors", () => {
    const all = queries.map((q) => q.expr).join("\n");
    expect(all).toMatch(/sum by \(outcome\) \(rate\(sd_decisions_total/);
    expect(all).toMatch(/histogram_quantile\(0\.5, sum by \(le, provider\) \(rate\(sd_vote_duration_seconds_bucket/);
    expect(all).toMatch(/histogram_quantile\(0\.95, sum by \(le, provider\) \(rate\(sd_vote_duration_seconds_bucket/);
    expect(all).toContain("sd_queue_jobs");
    expect(all).toContain("sd_vote_errors_total");
  });

  it("every PromQL expression reads metrics and labels the code defines", () => {
    expect(queries.length).toBeGreaterThan(5);
    for (const { panel, expr } of queries) {
      const metrics = [...expr.matchAll(/\b(sd_[a-z0-9_]+)/g)].map((m) => m[1]!);
      expect(metrics.length, `${panel}: ${expr}`).toBeGreaterThan(0);
      for (const metric of metrics) expect([...series.keys()], `${panel}: ${metric}`).toContain(metric);
      const labels = new Set(metrics.flatMap((metric) => series.get(metric) ?? []));
      const grouped = [...expr.matchAll(/\bby \(([^)]*)\)/g)].flatMap((m) => m[1]!.split(",").map((l) => l.trim()));
      const matched = [...expr.matchAll(/\{([^}]*)\}/g)].flatMap((m) => [...m[1]!.matchAll(/(\w+)\s*(?:=~|!~|!=|=)/g)].map((l) => l[1]!));
      // Prometheus adds the target's labels (the ServiceMonitor's namespace too) to every series.
      const targetLabels = ["job", "instance", "namespace"];
      for (const label of [...grouped, ...matched]) expect([...labels, ...targetLabels], `${panel}: label ${label} in ${expr}`).toContain(label);
    }
  });
});
