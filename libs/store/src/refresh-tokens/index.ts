export { refreshTokensCollection, type RefreshTokenDocument } from "./schema";
export { createRefreshTokenRepository, type RefreshToken, type RefreshTokenRepository } from "./repository";
