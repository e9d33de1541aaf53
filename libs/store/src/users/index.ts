export { usersCollection, type UserDocument } from "./schema";
export { createUserRepository, type GoogleProfile, type User, type UserRepository } from "./repository";
