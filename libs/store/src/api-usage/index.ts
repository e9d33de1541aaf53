export { createApiUsageRepository, type ApiUsageRepository } from "./repository";
