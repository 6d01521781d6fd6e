// Generated from the Rust types by crates/tauri-plugin-satchel/src/bindings.rs; do not edit.
// Regenerate: SATCHEL_UPDATE_BINDINGS=1 cargo test -p tauri-plugin-satchel bindings

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
state: number, 
/**
 * Beyond the spec: the token's id in its collection (decimal), which a
 * send of the NFT names.
 */
tokenId: string, 
/**
 * Beyond the spec: who sent it to the account, checksummed, when the
 * service saw it come; absent for a mint (and when it did not).
 */
receivedFrom?: string, 
/**
 * Beyond the spec: the app judges it likely spam (a stranger sent it, in a
 * transaction none of the person's accounts sent, of a collection the app
 * does not vouch for); the gallery hides it until the person shows its
 * collection.
 */
likelySpam: boolean, };

export type NftGrid = { 
/**
 * What the grid is: the same listing has the same version (within this
 * run of the app), so the page knows whether the tiles it holds are
 * still the grid's.
 */
version: string, 
/**
 * All the person's NFTs, on every account.
 */
count: number, };

export type NftFilter = { 
/**
 * Only this account's (an address); every account's when omitted.
 */
account?: string, 
/**
 * Only those on this network.
 */
network?: string, 
/**
 * Only those whose name or collection's name has this in it (letter
 * case aside).
 */
search?: string, 
/**
 * Also those the person's choices leave out (see [`NftTiles::hidden`]).
 */
showHidden?: boolean, };

export type NftTiles = { 
/**
 * The grid's version (see [`NftGrid::version`]).
 */
version: string, 
/**
 * The NFTs of the account shown, before the other filters.
 */
listed: number, 
/**
 * Of those, the ones left out unless the person asks to see them: of
 * collections they hid, and likely spam unless they chose to show its
 * collection.
 */
hidden: number, 
/**
 * The networks of the account's NFTs, each once, in the listing's order.
 */
networks: Array<string>, 
/**
 * How many match the filter: the grid's length.
 */
matching: number, 
/**
 * The first tile's place among them.
 */
from: number, tiles: Array<NftTile>, };

export type NftTile = { 
/**
 * What [`Widget::nft_detail`] knows it by.
 */
id: string, name: string, quantity: number, 
/**
 * Its picture for the thumbnail protocol (`nft/<handle>`), when it has one.
 */
picture?: string, 
/**
 * Its content is a video; omitted when not.
 */
video?: boolean, 
/**
 * Shown as likely spam (its picture veiled): it looks like spam and the
 * person did not choose to show its collection; omitted when not.
 */
spam?: boolean, 
/**
 * Its collection's name (its address when it has none).
 */
collection: string, scheme: ServiceNftScheme, };

export type NetworkInfo = { name: string, chainId: number, symbol: string, decimals: number, iconUrl: string, };

export type OAuthProviderInfo = { provider: Provider, clientId: string, 
/**
 * The provider's authorization endpoint.
 */
authorizeUrl: string, 
/**
 * Space-separated scopes to ask for.
 */
scopes: string, };

export type AppInfo = { appId: string, name: string, providers: Array<Provider>, 
/**
 * The OAuth providers of `providers` the app has registered with the
 * service: where a device sends the person to log in.
 */
oauth: Array<OAuthProviderInfo>, networks: Array<NetworkInfo>, 
/**
 * Whether e-mail users must verify their address before they can log in.
 */
emailVerification: boolean, 
/**
 * The e-mail domains sign-up is limited to; empty allows every domain.
 */
emailDomains: Array<string>, passwordRules: string, };

export type AppStart = { 
/**
 * The app's settings (`GET /v1/app`).
 */
app: AppInfo, 
/**
 * The life cycle, past initialising.
 */
status: ServiceLifeCycle, 
/**
 * Who is logged in, if anyone.
 */
user?: ServiceUser, 
/**
 * Their balances, when logged in and read within 300 ms (`START_BALANCES_WAIT`).
 */
balances?: Array<AccountBalanceInfo>, };

export type LoginProviderChoice = { provider: string, clientId: string, };

export type LoginOptions = { oauth: Array<Provider>, email: boolean, prefillEmail?: string, };

export type RegisterEmailPrompt = { provider: Provider, };

export type ExternalLoginOutcome = { "user": ServiceUser } | { "registerEmail": RegisterEmailPrompt };

export type ServiceErrorCode = "ApiRequestError" | "InvalidParameters" | "NotInitialized" | "InvalidAppKey" | "InvalidLoginProvider" | "InvalidToken" | "InvalidLoginSession" | "UserCancelled" | "UnknownError" | "NotConnectedInternet" | "FailedLogin" | "AlreadyLogout" | "AlreadyInitialized" | "InvalidEmailDomain" | "FailedSendEmail" | "RequiredEmailVerified" | "IncorrectEmailForm" | "IncorrectPasswordForm" | "NotInitializedNetwork" | "RequiredSignupEmail" | "FailedEmailVerified" | "FailedPasswordStateSetting" | "FailedPasswordSetting" | "ExistedEmail" | "NotActivity";

export type LoginLibraryError = "required/register_email" | "Invalid provider" | "User canceled" | "Internal error" | "auth/email-verified" | "auth/existed-email" | "fail/send-email" | "fail/email-verified" | "login module not initialized" | "Already logout";

export type SdkErrorCode = "KeychainUnavailable" | "TooManyRequests" | "WrongPin" | "PinLocked" | "NotFound" | "TransactionWouldFail";

export type ErrorCode = ServiceErrorCode | LoginLibraryError | SdkErrorCode;

export type AppError = { code: ErrorCode, message: string, };

export type KeyState = "noWallet" | "onDevice" | "missing" | "mismatch" | "stale";

export type KeyStatus = { state: KeyState, phraseConfirmed: boolean, 
/**
 * Accounts the service listed whose address is not this key's: not shown,
 * not received into, not sent from (the page says so when there are any).
 */
refusedAccounts: number, 
/**
 * Further accounts the service lists at the phrase's next indexes that
 * this device has not derived yet (added on another device): not shown
 * until the PIN opens the phrase and it makes them.
 */
unconfirmedAccounts: number, };

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

export type AccountRef = { network: string, address: string, contract?: string, isAA?: boolean, };

export type SendRequest = { id: number, account: ServiceAccount, to?: string, amount?: string, };

export type LanguageRequest = { 
/**
 * `en`, `ko` or `ja`.
 */
language: string, 
/**
 * Only for a person who has not chosen a language in Settings
 * (`defaultLanguage`); `changeLanguage` changes it whatever they chose.
 */
asDefault: boolean, };

export type SendResult = { txId: string, };

export type SendForm = { account: AccountRef, to: string, amount: string, };

export type FeeSpeed = "slow" | "normal" | "fast";

export type HighFee = "aboveBaseFee" | "shareOfAmount";

export type FeeOption = { speed: FeeSpeed, 
/**
 * The fee cap per gas, in gwei (decimal).
 */
maxFeePerGasGwei: string, 
/**
 * The most the fee can be: gas limit × fee cap.
 */
fee: string, 
/**
 * Amount plus fee, when the coin itself is sent.
 */
total?: string, 
/**
 * The coin balance after, at the most the fee can be (never below 0).
 */
coinAfter: string, 
/**
 * The token balance after, when a token is sent.
 */
tokenAfter?: string, 
/**
 * What Max fills in: the whole balance less this fee for the coin, the
 * whole token balance for a token.
 */
max: string, 
/**
 * Whether the balance covers the amount and this fee.
 */
enough: boolean, 
/**
 * Why this fee needs the person's explicit yes on the review page, when it
 * does ([`ConfirmSend::accept_high_fee`]).
 */
highFee?: HighFee, };

export type ReplaceAction = "speedUp" | "cancel";

export type Replacement = { txHash: string, action: ReplaceAction, };

export type RecipientWarning = { "kind": "firstTransfer" } | { "kind": "lookAlike", 
/**
 * The address it imitates.
 */
of: string, 
/**
 * Its name, when saved.
 */
name?: string, } | { "kind": "tokenContract" } | { "kind": "contractNotToken" };

export type SendQuote = { quoteId: string, network: string, chainId: number, from: string, 
/**
 * The recipient (EIP-55).
 */
to: string, 
/**
 * The ENS name typed for the recipient, which resolved to `to`.
 */
recipientName?: string, 
/**
 * The token's contract, when a token is sent.
 */
contract?: string, symbol: string, decimals: number, coinSymbol: string, 
/**
 * The amount sent, exact, in `symbol`'s units.
 */
amount: string, coinBalance: string, tokenBalance?: string, gasLimit: number, 
/**
 * The latest block's base fee, in gwei.
 */
baseFeeGwei: string, 
/**
 * Slow, normal, fast; one option for a replacement.
 */
options: Array<FeeOption>, recipientIsContract: boolean, recipientIsSelf: boolean, replaces?: Replacement, 
/**
 * What the review warns of about the recipient (a send's; none for a
 * replacement or an application's transaction, which show their own).
 */
warnings: Array<RecipientWarning>, };

export type ConfirmSend = { quoteId: string, speed: FeeSpeed, pin: string, requestId?: number, 
/**
 * The person confirmed an unusually high fee ([`FeeOption::high_fee`]);
 * without it such a fee is refused.
 */
acceptHighFee: boolean, };

export type NftSendForm = { 
/**
 * The account that holds it.
 */
account: AccountRef, 
/**
 * The collection's contract.
 */
contract: string, tokenId: string, erc1155: boolean, to: string, amount: string, };

export type AddressCheck = { 
/**
 * The address in EIP-55 form.
 */
address: string, 
/**
 * It is the sending account itself.
 */
isSelf: boolean, 
/**
 * The ENS name typed, in the form resolved, when a name was typed.
 */
name?: string, };

export type TransactionDirection = "sent" | "received";

export type TransactionStatus = "pending" | "mined" | "failed" | "replaced" | "dropped";

export type ActivityEntry = { txHash: string, network: string, 
/**
 * The wallet's account this is about (EIP-55).
 */
address: string, direction: TransactionDirection, status: TransactionStatus, counterparty: string, contract?: string, symbol: string, amount: string, coinSymbol: string, 
/**
 * Paid (mined) or at most (pending), in the coin.
 */
fee?: string, nonce?: number, blockNumber?: number, createdAt: number, replacedBy?: string, 
/**
 * A cancel: nothing sent to itself in a pending one's place.
 */
isCancel: boolean, 
/**
 * What it did, as this device signed it.
 */
kind: ActivityKind, 
/**
 * The NFT it sent, when `kind` is an NFT transfer.
 */
nft?: NftSent, };

export type ActivityKind = "transfer" | "nftTransfer" | "contractCall" | "deployment";

export type NftSent = { 
/**
 * The collection's contract (EIP-55).
 */
contract: string, 
/**
 * The token's id, in decimal.
 */
tokenId: string, 
/**
 * How many (1 for an ERC-721), in decimal.
 */
amount: string, };

export type SignUpOutcome = { verificationSent: boolean, user?: ServiceUser, };

export type RefreshWait = { balances: number, nfts: number, };

export type SignIn = { 
/**
 * `scheme://` when the message names one.
 */
scheme?: string, 
/**
 * The site it signs in to (host and port).
 */
domain: string, address: string, statement?: string, uri: string, version: string, chainId: number, nonce: string, issuedAt: string, expirationTime?: string, notBefore?: string, requestId?: string, resources: Array<string>, };

export type MessageReview = { 
/**
 * The account that would sign (checksummed).
 */
account: string, 
/**
 * The message as text, when it is plain text.
 */
text?: string, 
/**
 * The message's bytes as 0x-hex, always.
 */
hex: string, 
/**
 * The sign-in it asks for, when it is an EIP-4361 message.
 */
signIn?: SignIn, 
/**
 * Why Satchel will not sign it (shown in red, with no way to approve).
 */
refusal?: string, 
/**
 * Exactly 32 bytes that are not text: most likely a hash, whose signature
 * may approve what the page cannot show (an order, a transaction). Warned.
 */
looksLikeHash?: boolean, };

export type TypedField = { name: string, 
/**
 * Its Solidity type (`address`, `uint256`, `Person`, `Person[]`…).
 */
typeName: string, value?: string, 
/**
 * The fields inside a struct or an array (none for a value).
 */
fields: Array<TypedField>, };

export type Allowance = { 
/**
 * The token's contract (checksummed).
 */
token: string, 
/**
 * Its symbol and decimals when the app knows the token.
 */
symbol?: string, decimals?: number, 
/**
 * In the token's smallest unit, as a decimal string.
 */
amount: string, 
/**
 * So large it stands for "everything, for ever".
 */
unlimited: boolean, };

export type Permit = { 
/**
 * `Permit` (EIP-2612) or `Permit2`.
 */
standard: string, 
/**
 * Who may spend (checksummed).
 */
spender: string, allowances: Array<Allowance>, 
/**
 * Seconds since 1970 until which it holds; none when it never ends.
 */
until?: number, 
/**
 * The chain its domain names (a permit without one is valid on any that
 * has the contract).
 */
chainId?: number, };

export type OrderItemKind = "coin" | "erc20" | "erc721" | "erc1155" | "anyErc721" | "anyErc1155";

export type OrderItem = { kind: OrderItemKind, 
/**
 * The token's contract (checksummed; the zero address for the coin).
 */
token: string, 
/**
 * The NFT's id, for one NFT.
 */
tokenId?: string, 
/**
 * In the token's smallest unit; the larger of the order's start and end
 * amounts (a falling or rising price moves at most that).
 */
amount: string, symbol?: string, decimals?: number, 
/**
 * Who receives it (for what others receive).
 */
recipient?: string, };

export type SeaportOrder = { 
/**
 * Whose assets the order offers (checksummed).
 */
offerer: string, 
/**
 * What the signer gives.
 */
gives: Array<OrderItem>, 
/**
 * What comes back to the signer.
 */
receives: Array<OrderItem>, 
/**
 * What goes to anyone else: fees, royalties, a buyer.
 */
othersReceive: Array<OrderItem>, 
/**
 * Seconds since 1970 until which it can be filled; none: for ever.
 */
until?: number, 
/**
 * It gives something and brings the signer nothing back (red).
 */
givesForNothing: boolean, };

export type TypedReview = { 
/**
 * The account that would sign (checksummed).
 */
account: string, primaryType: string, 
/**
 * The domain's fields that are set (name, version, chain, contract, salt).
 */
domain: Array<TypedField>, message: Array<TypedField>, 
/**
 * More fields than the page shows.
 */
truncated: boolean, permit?: Permit, 
/**
 * A Seaport order (an NFT market's listing or offer), in words.
 */
order?: SeaportOrder, 
/**
 * Why Satchel will not sign it (shown in red, with no way to approve).
 */
refusal?: string, };

export type DecodedCall = { "kind": "plain" } | { "kind": "transfer", to: string, amount: string, symbol?: string, decimals?: number, } | { "kind": "approve", spender: string, amount: string, symbol?: string, decimals?: number, unlimited: boolean, adds: boolean, } | { "kind": "permit2Approve", token: string, spender: string, amount: string, symbol?: string, decimals?: number, unlimited: boolean, until?: number, } | { "kind": "transferFrom", from: string, to: string, 
/**
 * An amount of a known token in its units, else the raw value (an
 * amount or an NFT's id).
 */
amount: string, symbol?: string, decimals?: number, } | { "kind": "nftTransfer", from: string, to: string, tokenId: string, amount: string, } | { "kind": "setApprovalForAll", operator: string, approved: boolean, } | { "kind": "unknown", selector: string, } | { "kind": "deploy", codeSize: number, };

export type CallReview = { from: string, 
/**
 * The transaction's own `to`: the recipient, or the contract called;
 * absent for a deployment.
 */
to?: string, 
/**
 * The coin sent, in wei.
 */
value: string, call: DecodedCall, 
/**
 * The call data, 0x-hex (`0x` for none).
 */
data: string, 
/**
 * What lets someone take everything: an unlimited approval, an operator
 * for every NFT of a collection (shown in red).
 */
takesEverything: boolean, };

export type AssetKind = "coin" | "erc20" | "erc721" | "erc1155";

export type ChangeDirection = "in" | "out";

export type ExpectedChange = { direction: ChangeDirection, kind: AssetKind, 
/**
 * In the asset's units when the app knows it (coin, known tokens); else
 * smallest units; an NFT's count.
 */
amount: string, 
/**
 * The asset's symbol, when the app knows it.
 */
symbol?: string, contract?: string, tokenId?: string, counterparty: string, };

export type ExpectedApproval = { kind: ApprovalKind, contract: string, spender: string, 
/**
 * An allowance in the token's units when the app knows it (else its
 * smallest units); absent for an operator.
 */
amount?: string, symbol?: string, 
/**
 * An allowance with no practical limit (2^128 or more), or an operator
 * granted: either can take everything of its kind (shown in red).
 */
takesEverything: boolean, 
/**
 * The approval is withdrawn: an allowance set to 0, an operator removed.
 */
withdrawn: boolean, };

export type CallQuote = { quote: SendQuote, changes?: Array<ExpectedChange>, 
/**
 * The approvals the same simulation saw the account give or withdraw
 * (absent when none): an allowance or an operator for a whole collection.
 */
approvals?: Array<ExpectedApproval>, };

export type TransactionPrompt = { call: CallReview, prepared?: CallQuote, 
/**
 * Why it will not be sent (it would fail, the balance is short…).
 */
refusal?: string, };

export type CallsPrompt = { calls: Array<TransactionPrompt>, };

export type ConnectAsk = { throughExtension: boolean, };

export type AddableToken = { 
/**
 * The EIP-55 checksummed contract address.
 */
contract: string, network: string, name: string, symbol: string, decimals: number, 
/**
 * The account's balance in the smallest unit (an integer string).
 */
balance: string, 
/**
 * Whether the account tracks the token already.
 */
tracked: boolean, 
/**
 * Whether the token is one of the network's configured tokens (those
 * every account tracks, and which cannot be removed).
 */
configured: boolean, };

export type WatchAssetPrompt = { token: AddableToken, askedSymbol?: string, askedDecimals?: number, 
/**
 * Why it will not be listed: the application's claim is not the chain's.
 */
refusal?: string, };

export type UseWidgetPrompt = { appId: string, 
/**
 * Its name as the service knows it (its key checked), not the program's claim.
 */
name: string, 
/**
 * The domain (bundle identifier) it says it is registered under; the
 * service checks it against the app key.
 */
domain: string, };

export type PromptRequest = { "kind": "connect" } & ConnectAsk | { "kind": "signMessage" } & MessageReview | { "kind": "signTypedData" } & TypedReview | { "kind": "sendTransaction" } & TransactionPrompt | { "kind": "sendCalls" } & CallsPrompt | { "kind": "watchAsset" } & WatchAssetPrompt | { "kind": "useWidget" } & UseWidgetPrompt;

export type ConnectPrompt = { id: number, 
/**
 * Who asks: a web origin, or "a program on this computer".
 */
origin: string, 
/**
 * A program on this computer rather than a web page.
 */
local: boolean, 
/**
 * How many more prompts wait after this one.
 */
waiting: number, 
/**
 * What it asks.
 */
request: PromptRequest, };

export type SiteSwitched = { 
/**
 * Counts the switches told, so two alike are two notices.
 */
id: number, origin: string, local: boolean, 
/**
 * The network's name in the app's table, and its chain id.
 */
network: string, chainId: number, };

export type ConnectedSite = { 
/**
 * What Disconnect names it by.
 */
key: string, origin: string, local: boolean, 
/**
 * Seconds since 1970.
 */
connectedAt: number, 
/**
 * Connected through Satchel's browser extension (the page named by what
 * the browser says), not straight to the endpoint.
 */
throughExtension: boolean, };

export type EndpointStatus = { 
/**
 * The port it listens on, or would.
 */
port: number, serving: boolean, 
/**
 * Why it does not serve (the port is taken…).
 */
problem?: string, };

export type LinkedExtension = { 
/**
 * Its origin (`chrome-extension://…`): what Unlink names it by.
 */
extension: string, 
/**
 * The browser it said it runs in, for the person ("Chromium").
 */
browser: string, 
/**
 * Seconds since 1970.
 */
linkedAt: number, };

export type SavedAddress = { 
/**
 * EIP-55.
 */
address: string, name: string, };

export type ImportOutcome = { added: number, renamed: number, 
/**
 * Lines not taken (1-based), with why.
 */
refused: Array<string>, };

export type CollectionChoices = { 
/**
 * Collections hidden by the person, whatever came of them.
 */
hidden: Array<string>, 
/**
 * Collections the person chose to see although they look like spam.
 */
shown: Array<string>, };

export type OwnToken = { network: string, 
/**
 * EIP-55.
 */
contract: string, name: string, symbol: string, decimals: number, };

export type ApprovalKind = "allowance" | "operator";

export type ApprovalEntry = { network: string, 
/**
 * The account that gave it (EIP-55).
 */
account: string, 
/**
 * The token or NFT collection (EIP-55).
 */
contract: string, 
/**
 * Who may spend or move (EIP-55).
 */
spender: string, 
/**
 * The spender's name in the person's address book.
 */
spenderName?: string, kind: ApprovalKind, 
/**
 * An allowance as the chain says it now, in the token's units when this
 * device knows the token (else its smallest units); absent for an operator.
 */
amount?: string, symbol?: string, 
/**
 * No practical limit (2^128 or more of the smallest unit).
 */
unlimited: boolean, blockNumber: number, txHash: string, };

export type RevokeForm = { network: string, account: string, contract: string, spender: string, kind: ApprovalKind, };

export type AssetValue = { network: string, address: string, 
/**
 * The token's contract; omitted for the coin.
 */
contract?: string, symbol: string, 
/**
 * One whole unit's price (decimal string); omitted without a feed.
 */
price?: string, 
/**
 * The balance's value to the cent (rounded down); omitted without a price.
 */
value?: string, 
/**
 * When the price's feed was last updated (Unix seconds).
 */
updatedAt?: number, 
/**
 * Whether the price is older than the service's staleness bound.
 */
stale: boolean, };

export type WalletValues = { 
/**
 * Uppercase ISO 4217 code (`USD`).
 */
currency: string, 
/**
 * The currencies the person may choose from (uppercase).
 */
currencies: Array<string>, 
/**
 * The sum of every shown asset's value, to the cent; omitted when an
 * asset held has no price or a stale one.
 */
total?: string, 
/**
 * The update time of the oldest price in the total (Unix seconds).
 */
pricedAt?: number, 
/**
 * The symbols of held assets without a fresh price: why there is no total.
 */
unpriced: Array<string>, assets: Array<AssetValue>, };

export type WalletAccount = { 
/**
 * Checksummed.
 */
address: string, 
/**
 * The name the person gave it (the service keeps it).
 */
label: string, 
/**
 * Its index in the wallet's path, `m/44'/60'/0'/0/index`.
 */
index: number, };
