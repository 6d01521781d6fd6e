//! The page's TypeScript types (`ui/src/api/generated.ts`), generated from the Rust
//! types the commands send, so the two cannot drift: this test fails when the file
//! is stale, and `SATCHEL_UPDATE_BINDINGS=1 cargo test -p tauri-plugin-satchel bindings` writes it.

use std::path::Path;

use satchel_api::{
    AccountBalanceInfo, AppInfo, LoginLibraryError, LoginStatus, NetworkInfo, Outcome, PinStatus,
    Provider, ServiceAccount, ServiceContentType, ServiceErrorCode, ServiceLifeCycle, ServiceNft,
    ServiceNftContract, ServiceNftScheme, ServiceUser, TokenBalanceInfo, UserInfo, UserStatus,
};
use satchel_api::{AssetKind, ChangeDirection, TransactionDirection, TransactionStatus};
use satchel_sdk::{
    AccountRef, ActivityEntry, ActivityKind, AddressCheck, CallQuote, ConfirmSend, ErrorCode,
    ExpectedApproval, ExpectedChange, ExternalLoginOutcome, FeeOption, FeeSpeed, HighFee, KeyState,
    KeyStatus, LanguageRequest, LoginOptions, LoginProviderChoice, NftSent, ReceiveInfo,
    RegisterEmailPrompt, ReplaceAction, Replacement, SdkError, SdkErrorCode, SendForm, SendQuote,
    SendRequest, SendResult,
};
use satchel_sdk::{
    ApprovalEntry, CollectionChoices, ImportOutcome, NftSendForm, OwnToken, RecipientWarning,
    RevokeForm, SavedAddress,
};
use ts_rs::{Config, TS};

use satchel_connect::review::message::MessageReview;
use satchel_connect::review::permit::{Allowance, Permit};
use satchel_connect::review::siwe::SignIn;
use satchel_connect::review::transaction::{CallReview, DecodedCall};
use satchel_connect::review::typed::{TypedField, TypedReview};

use crate::commands::{AppStart, RefreshWait, SignUpOutcome};
use satchel_desktop::dapps::{
    CallsPrompt, ConnectAsk, ConnectPrompt, ConnectedSite, EndpointStatus, PromptRequest,
    SiteSwitched, TransactionPrompt, UseWidgetPrompt, WatchAssetPrompt,
};

fn declarations() -> String {
    // Amounts are decimal strings; the few integers sent as JSON numbers
    // (quantities, chain ids, seconds) are well inside a double's exact range.
    let cfg = Config::new().with_large_int("number");
    let decls = [
        ServiceLifeCycle::decl(&cfg),
        LoginStatus::decl(&cfg),
        Provider::decl(&cfg),
        Outcome::decl(&cfg),
        UserInfo::decl(&cfg),
        UserStatus::decl(&cfg),
        ServiceUser::decl(&cfg),
        ServiceAccount::decl(&cfg),
        TokenBalanceInfo::decl(&cfg),
        AccountBalanceInfo::decl(&cfg),
        ServiceContentType::decl(&cfg),
        ServiceNftScheme::decl(&cfg),
        ServiceNftContract::decl(&cfg),
        ServiceNft::decl(&cfg),
        satchel_sdk::NftGrid::decl(&cfg),
        satchel_sdk::NftFilter::decl(&cfg),
        satchel_sdk::NftTiles::decl(&cfg),
        satchel_sdk::NftTile::decl(&cfg),
        NetworkInfo::decl(&cfg),
        satchel_api::OAuthProviderInfo::decl(&cfg),
        AppInfo::decl(&cfg),
        AppStart::decl(&cfg),
        LoginProviderChoice::decl(&cfg),
        LoginOptions::decl(&cfg),
        RegisterEmailPrompt::decl(&cfg),
        ExternalLoginOutcome::decl(&cfg),
        ServiceErrorCode::decl(&cfg),
        LoginLibraryError::decl(&cfg),
        SdkErrorCode::decl(&cfg),
        ErrorCode::decl(&cfg),
        SdkError::decl(&cfg),
        KeyState::decl(&cfg),
        KeyStatus::decl(&cfg),
        PinStatus::decl(&cfg),
        ReceiveInfo::decl(&cfg),
        AccountRef::decl(&cfg),
        SendRequest::decl(&cfg),
        LanguageRequest::decl(&cfg),
        SendResult::decl(&cfg),
        SendForm::decl(&cfg),
        FeeSpeed::decl(&cfg),
        HighFee::decl(&cfg),
        FeeOption::decl(&cfg),
        ReplaceAction::decl(&cfg),
        Replacement::decl(&cfg),
        RecipientWarning::decl(&cfg),
        SendQuote::decl(&cfg),
        ConfirmSend::decl(&cfg),
        NftSendForm::decl(&cfg),
        AddressCheck::decl(&cfg),
        TransactionDirection::decl(&cfg),
        TransactionStatus::decl(&cfg),
        ActivityEntry::decl(&cfg),
        ActivityKind::decl(&cfg),
        NftSent::decl(&cfg),
        SignUpOutcome::decl(&cfg),
        RefreshWait::decl(&cfg),
        SignIn::decl(&cfg),
        MessageReview::decl(&cfg),
        TypedField::decl(&cfg),
        Allowance::decl(&cfg),
        Permit::decl(&cfg),
        satchel_connect::review::seaport::OrderItemKind::decl(&cfg),
        satchel_connect::review::seaport::OrderItem::decl(&cfg),
        satchel_connect::review::seaport::SeaportOrder::decl(&cfg),
        TypedReview::decl(&cfg),
        DecodedCall::decl(&cfg),
        CallReview::decl(&cfg),
        AssetKind::decl(&cfg),
        ChangeDirection::decl(&cfg),
        ExpectedChange::decl(&cfg),
        ExpectedApproval::decl(&cfg),
        CallQuote::decl(&cfg),
        TransactionPrompt::decl(&cfg),
        CallsPrompt::decl(&cfg),
        ConnectAsk::decl(&cfg),
        satchel_api::AddableToken::decl(&cfg),
        WatchAssetPrompt::decl(&cfg),
        UseWidgetPrompt::decl(&cfg),
        PromptRequest::decl(&cfg),
        ConnectPrompt::decl(&cfg),
        SiteSwitched::decl(&cfg),
        ConnectedSite::decl(&cfg),
        EndpointStatus::decl(&cfg),
        satchel_connect::LinkedExtension::decl(&cfg),
        SavedAddress::decl(&cfg),
        ImportOutcome::decl(&cfg),
        CollectionChoices::decl(&cfg),
        OwnToken::decl(&cfg),
        satchel_api::ApprovalKind::decl(&cfg),
        ApprovalEntry::decl(&cfg),
        RevokeForm::decl(&cfg),
        satchel_api::AssetValue::decl(&cfg),
        satchel_api::WalletValues::decl(&cfg),
        satchel_sdk::WalletAccount::decl(&cfg),
    ];
    let mut out = String::from(
        "// Generated from the Rust types by crates/tauri-plugin-satchel/src/bindings.rs; do not edit.\n\
         // Regenerate: SATCHEL_UPDATE_BINDINGS=1 cargo test -p tauri-plugin-satchel bindings\n",
    );
    for decl in decls {
        out.push_str("\nexport ");
        out.push_str(&decl);
        out.push('\n');
    }
    out
}

/// Where the generated types go: the widget's pages, and the widget SDK for
/// applications (`@satchel/widget`).
const OUTPUTS: [&str; 2] = [
    "../../ui/src/api/generated.ts",
    "../../packages/widget/src/generated.ts",
];

#[test]
fn the_generated_typescript_types_are_current() {
    let fresh = declarations();
    for output in OUTPUTS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(output);
        if std::env::var("SATCHEL_UPDATE_BINDINGS").as_deref() == Ok("1") {
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("the folder");
            std::fs::write(&path, &fresh).expect("written");
        }
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            current == fresh,
            "{} is stale: run SATCHEL_UPDATE_BINDINGS=1 cargo test -p tauri-plugin-satchel bindings",
            path.display()
        );
    }
}
