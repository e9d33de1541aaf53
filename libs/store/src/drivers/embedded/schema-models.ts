import { Mongoose, type Model, type Schema } from "mongoose";
import type { BaseDocument } from "../../collection";

/**
 * Mongoose models used without any connection: only for casting, defaults and validation.
 * A private Mongoose instance keeps them apart from any model the application registers.
 */
const detachedMongoose = new Mongoose();
const modelsBySchema = new WeakMap<Schema, Model<BaseDocument>>();

export function detachedModel(name: string, schema: Schema): Model<BaseDocument> {
  let model = modelsBySchema.get(schema);
  if (!model) {
    const modelName = uniqueModelName(name);
    model = detachedMongoose.model<BaseDocument>(modelName, schema, name);
    modelsBySchema.set(schema, model);
  }
  return model;
}

function uniqueModelName(name: string): string {
  let candidate = name;
  for (let n = 2; detachedMongoose.modelNames().includes(candidate); n += 1) candidate = `${name}_${n}`;
  return candidate;
}

/**
 * What MongoDB would store after mongoose casts and validates `input`: defaults applied, values
 * cast, maps flattened to plain objects. Rejects with mongoose's ValidationError / StrictModeError.
 */
export async function castAndValidate<TDoc extends BaseDocument>(model: Model<BaseDocument>, input: object): Promise<TDoc> {
  const doc = new model(input);
  await doc.validate();
  const plain: unknown = doc.toObject({ flattenMaps: true, versionKey: false, minimize: false, virtuals: false, getters: false });
  if (typeof plain !== "object" || plain === null || typeof (plain as Partial<BaseDocument>)._id !== "string") {
    throw new Error(`Document for ${model.collection.collectionName} must have a string _id`);
  }
  // A private copy: later changes to the caller's objects (Dates, arrays) cannot reach the store.
  return structuredClone(plain) as TDoc;
}
