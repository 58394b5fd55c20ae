// The compact scope control's menu behaviour, which ui/scopebar.js fetches the first time the bar
// turns compact. Its own file so that it is bundled on its own (ui/menu.js, which ui/sort.js
// bundles too, imports ./dom.js).
export { menuButton } from './menu.js'
