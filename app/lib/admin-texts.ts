/** The admin panel's texts that docs/spec.md quotes (§2 Admin panel, §5, §8), written once. */
export const ADMIN_TEXTS = {
  checkingPermissions: "Checking permissions...",
  accessDeniedTitle: "Access Denied",
  accessDenied: "You don't have admin privileges to access this page. Contact an administrator to request access.",
  goBack: "Go Back",

  addNewGame: "Add New Game",
  noGames: "No games found. Create your first game!",
  gamesLoadFailed: "Failed to load games. Please try again.",
  gameCreated: "Game created successfully!",
  gameUpdated: "Game updated successfully!",
  gameSaveFailed: "Failed to save game. Please try again.",
  gameDeleteFailed: "Failed to delete game. Please try again.",

  // Not SPEC's: cover art (docs/decisions/033).
  coverUploaded: "Cover uploaded. It shows on the game's card and page now.",
  coverRemoved: "Cover removed. The game shows its generated art again.",
  coverUploadFailed: "Failed to upload the cover. Please try again.",
  coverRemoveFailed: "Failed to remove the cover. Please try again.",

  addContent: "Add Content",
  noContent: "No content yet",
  addFirstContent: "Add First Content",
  contentCreated: "Content created successfully!",
  contentUpdated: "Content updated successfully!",
  contentDeleted: "Content deleted successfully!",
  contentDeleteFailed: "Failed to delete content",

  selectGame: "Please select a game",
  sectionsSaved: "All sections saved successfully!",

  addGuide: "Add Guide",
  noGuides: "No guides yet",
  addFirstGuide: "Add First Guide",
  guideCreated: "Guide created successfully!",
  guideUpdated: "Guide updated successfully!",
  guideDeleted: "Guide deleted successfully!",
  guideDeleteFailed: "Failed to delete guide",

  // Not SPEC's: the other lists' load failures, in the words of the games list's.
  contentLoadFailed: "Failed to load content. Please try again.",
  guidesLoadFailed: "Failed to load guides. Please try again.",
  messagesLoadFailed: "Failed to load messages. Please try again.",

  saveErrorTitle: "Error",
  somethingWentWrong: "Something went wrong",
  saving: "Saving...",
} as const;

export function deleteConfirmation(title: string) {
  return `Are you sure you want to delete "${title}"? This action cannot be undone.`;
}

export function gameDeleted(title: string) {
  return `"${title}" has been deleted successfully.`;
}
