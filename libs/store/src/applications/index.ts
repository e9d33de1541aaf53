export { applicationsCollection, type ApplicationDocument, type StoredResume } from "./schema";
export { createApplicationRepository, type ApplicationRepository, type JobApplication } from "./repository";
