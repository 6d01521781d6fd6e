// Generated from the Rust types by src-tauri/src/bindings.rs; do not edit.
// Regenerate: SATCHEL_UPDATE_BINDINGS=1 cargo test -p satchel bindings

export type ServiceLifeCycle = "not_initialized" | "initializing" | "initialized" | "before_login" | "login" | "login_before_register";

export type LoginStatus = "complete" | "pinRequired" | "registerRequired";

export type Provider = "google" | "apple" | "naver" | "discord" | "line" | "facebook" | "email" | "external_token";

export type Outcome = "success" | "fail";

export type UserInfo = { userId: string, email: string, provider: Provider, use2FA: boolean, };

export type UserStatus = { loginStatus: LoginStatus, pinRequired?: boolean, };

export type ServiceUser = { status: Outcome, userInfo?: UserInfo, userStatus: UserStatus, walletId?: string, };

export type ServiceAccount = { address: string, network: string, contract?: string, isAA?: boolean, };

export type TokenBalanceInfo = { symbol: string, balance: string, contract: string, };

export type AccountBalanceInfo = { network: string, address: string, symbol: string, balance: string, tokens: Array<TokenBalanceInfo>, };

export type ServiceContentType = "image" | "video";

export type ServiceNftScheme = "ERC721" | "ERC1155";

export type ServiceNftContract = { name: string, address: string, scheme: ServiceNftScheme, description?: string, network: string, externalLink?: string, imageUrl?: string, };

export type ServiceNft = { account: ServiceAccount, contract: ServiceNftContract, name: string, description: string, externalLink: string, imageUrl: string, contentUrl?: string, quantity: number, contentType: ServiceContentType, 
/**
 * The spec leaves the values open; Satchel sends 1 for "held and described".
 */
state: number, };

export type NetworkInfo = { name: string, chainId: number, symbol: string, decimals: number, iconUrl: string, };

export type AppInfo = { appId: string, name: string, providers: Array<Provider>, networks: Array<NetworkInfo>, 
/**
 * Whether e-mail users must verify their address before they can log in.
 */
emailVerification: boolean, 
/**
 * The e-mail domains sign-up is limited to; empty allows every domain.
 */
emailDomains: Array<string>, passwordRules: string, };

export type ServiceErrorCode = "ApiRequestError" | "InvalidParameters" | "NotInitialized" | "InvalidAppKey" | "InvalidLoginProvider" | "InvalidToken" | "InvalidLoginSession" | "UserCancelled" | "UnknownError" | "NotConnectedInternet" | "FailedLogin" | "AlreadyLogout" | "AlreadyInitialized" | "InvalidEmailDomain" | "FailedSendEmail" | "RequiredEmailVerified" | "IncorrectEmailForm" | "IncorrectPasswordForm" | "NotInitializedNetwork" | "RequiredSignupEmail" | "FailedEmailVerified" | "FailedPasswordStateSetting" | "FailedPasswordSetting" | "ExistedEmail" | "NotActivity";

export type LoginLibraryError = "required/register_email" | "Invalid provider" | "User canceled" | "Internal error" | "auth/email-verified" | "auth/existed-email" | "fail/send-email" | "fail/email-verified" | "login module not initialized" | "Already logout";

export type SdkErrorCode = "KeychainUnavailable" | "TooManyRequests" | "WrongPin" | "PinLocked" | "NotFound";

export type ErrorCode = ServiceErrorCode | LoginLibraryError | SdkErrorCode;

export type AppError = { code: ErrorCode, message: string, };

export type KeyState = "noWallet" | "onDevice" | "missing" | "mismatch" | "stale";

export type KeyStatus = { state: KeyState, phraseConfirmed: boolean, };

export type PinStatus = { 
/**
 * Wrong proofs left before the next pause (or, after the pauses, the lock).
 */
triesLeft: number, 
/**
 * Seconds until the next proof is taken; 0 when it is taken now.
 */
lockedForSecs: number, 
/**
 * Only the e-mail link (or a reset with the recovery phrase) lifts the lock.
 */
emailRequired: boolean, 
/**
 * The service keeps an encrypted backup of the mnemonic.
 */
hasBackup: boolean, };

export type ReceiveInfo = { 
/**
 * The account as the spec names it; `receive` resolves `{account}`.
 */
account: ServiceAccount, 
/**
 * The address, EIP-55 checksummed.
 */
address: string, network: string, chainId: number, 
/**
 * The coin's or the token's symbol.
 */
symbol: string, 
/**
 * `ethereum:` payment URI (EIP-681): the QR code's text.
 */
uri: string, };

export type SignUpOutcome = { verificationSent: boolean, user?: ServiceUser, };

export type RefreshWait = { balances: number, nfts: number, };
