import type { Collection } from "../collection";
import type { ApplicationDocument } from "./schema";

export type JobApplication = Omit<ApplicationDocument, "_id"> & { id: string };

export interface ApplicationRepository {
  insert(application: JobApplication): Promise<void>;
  findById(id: string): Promise<JobApplication | null>;
  count(): Promise<number>;
}

export function createApplicationRepository(applications: Collection<ApplicationDocument>): ApplicationRepository {
  return {
    async insert({ id, ...fields }) {
      await applications.insertOne({ _id: id, ...fields });
    },
    async findById(id) {
      const doc = await applications.findOne({ _id: id });
      if (!doc) return null;
      const { _id, ...fields } = doc;
      return { id: _id, ...fields, resume: fields.resume ?? null };
    },
    count() {
      return applications.countDocuments({});
    },
  };
}
