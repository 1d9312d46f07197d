/** The Cost pane's state: how far its page is scrolled. */
export interface CostPaneState {
  scroll: number;
}
