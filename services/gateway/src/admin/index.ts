export { adminRoutes, type AdminDeps } from "./routes";
export { requireAdmin } from "./require-admin";
export { evaluateHealth, HEALTH_THRESHOLDS, measureHealth, type HealthFacts } from "./system-health";
